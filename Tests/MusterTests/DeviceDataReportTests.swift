import EventLog
import EventLogTesting
import Foundation
import Migrations
import Muster
import MusterWire
import Testing

/// What MQTT devices publish is recorded once per message (QoS 1 redeliveries are not), and their session
/// objects are kept.
@Suite(.timeLimit(.minutes(5))) struct DeviceDataReportTests {
    /// Seed 001's sensor message.
    static let sensors = Array(
        #"{"iPhoneID":"9A093D8F","Battery":50,"GPS":{"Altitude":269.8218,"Latitude":47.9942,"Longitude":7.8397}}"#.utf8)

    /// - Parameter mqttDevices: the projection in place of the domain's.
    static func open(_ t: TestLog, _ mqttDevices: MQTTDevicesProjection? = nil) throws -> EventLog {
        try t.open {
            $0.projections += MusterDomain.projections.map { projection in
                guard let mqttDevices, projection is MQTTDevicesProjection else { return projection }
                return mqttDevices
            }
            $0.upcasters = Migrations.upcasters
        }
    }

    static func fixture() async throws -> (t: TestLog, log: EventLog, devices: MQTTDevices) {
        let t = try TestLog()
        let log = try open(t)
        let directory = Directory(log: log)
        try await directory.addUser("ada", password: nil)
        try await directory.register(MQTTDeviceRegistrationTests.phone())
        try await directory.register(
            MQTTDeviceRegistrationTests.phone("ada", "IPAD", subscribe: "hello/ipad", publish: "cedalo/iPad"))
        return (t, log, MQTTDevices(log: log))
    }

    static func report(_ body: [UInt8], device: String = "9A093D8F", topic: String = "cedalo/iPhone")
        -> MQTTDevices.Report
    {
        MQTTDevices.Report(user: "ada", deviceId: device, topic: topic, body: body)
    }

    static func text(_ json: String) -> [UInt8] { Array(json.utf8) }

    @Test func batchesSubmittedOneAfterTheOtherAreRecordedInThatOrderAndSeeEachOther() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        // Handed over before any is awaited, as the bridge hands over the chunks of one MQTT batch.
        let batches = (0..<5).map { batch in
            f.devices.submit(
                (0..<40).map { n in Self.report(Self.text(#"{"Battery":\#(batch * 40 + n)}"#)) }
                    // The last message of the batch before, again: a redelivery across the two.
                    + (batch > 0 ? [Self.report(Self.text(#"{"Battery":\#(batch * 40 - 1)}"#))] : []))
        }
        var outcomes: [MQTTDevices.Outcome] = []
        for batch in batches { outcomes += try await batch.value }
        let recorded = outcomes.compactMap { if case .recorded(let position) = $0 { position } else { nil } }
        #expect(recorded == Array(head + 1...head + 200))
        let duplicates = outcomes.compactMap { if case .duplicate(let of) = $0 { of } else { nil } }
        #expect(duplicates == [head + 40, head + 80, head + 120, head + 160])
        #expect(
            try self.recorded(f.log).map { String(decoding: $0.body, as: UTF8.self) }
                == (0..<200).map { #"{"Battery":\#($0)}"# })
    }

    func recorded(_ log: EventLog) throws -> [DeviceDataReported] {
        try log.events(EventQuery(type: DeviceDataReported.type)).compactMap { try DeviceDataReported.decode($0) }
    }

    @Test func aMessageIsRecordedAsSentWithItsContentHash() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let outcome = try await f.devices.report(Self.report(Self.sensors))
        #expect(outcome == .recorded(position: f.log.head))
        let event = try #require(try recorded(f.log).first)
        #expect(event.body == Self.sensors)
        #expect(event.topic == "cedalo/iPhone")
        #expect(event.user == "ada" && event.deviceId == "9A093D8F")
        #expect(event.contentHash == DeviceDataReported.contentHash(topic: "cedalo/iPhone", body: Self.sensors))
        #expect(event.contentHash.count == 64)
        #expect(event.contentHash != DeviceDataReported.contentHash(topic: "cedalo/iPad", body: Self.sensors))
        let stored = try #require(try f.log.events(EventQuery(type: DeviceDataReported.type)).first)
        #expect(stored.stream == "device/9A093D8F")
        let json = try JSONValue(json: try #require(EventCatalogue.json(stored)))
        #expect(json["body"]?["GPS"]?["Latitude"]?.doubleValue == 47.9942)
    }

    @Test func theSameMessageTwiceIsRecordedOnceUntilTheWindowHasPassed() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        guard case .recorded(let first) = try await f.devices.report(Self.report(Self.sensors)) else {
            Issue.record("the first message was not recorded")
            return
        }
        f.t.clock.advance(seconds: 599)
        #expect(try await f.devices.report(Self.report(Self.sensors)) == .duplicate(of: first))
        // Another topic or another device is another message.
        #expect(try await f.devices.report(Self.report(Self.sensors, topic: "cedalo/other")) != .duplicate(of: first))
        #expect(try await f.devices.report(Self.report(Self.sensors, device: "IPAD")) != .duplicate(of: first))
        #expect(try recorded(f.log).count == 3)
        f.t.clock.advance(seconds: 2)
        guard case .recorded(let again) = try await f.devices.report(Self.report(Self.sensors)) else {
            Issue.record("the message after the window was not recorded")
            return
        }
        #expect(again > first)
        #expect(try recorded(f.log).count == 4)
        // The window now runs from the second recording.
        f.t.clock.advance(seconds: 300)
        #expect(try await f.devices.report(Self.report(Self.sensors)) == .duplicate(of: again))
    }

    @Test func messagesOlderThanTheWindowAreForgottenAsNewMessagesArrive() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        for n in 1...10 { try await f.devices.report(Self.report(Self.text(#"{"Battery":\#(n)}"#))) }
        #expect(try remembered(f.log) == 10)
        f.t.clock.advance(seconds: 601)
        // Each new message forgets up to four expired ones, oldest first.
        for n in 11...13 { try await f.devices.report(Self.report(Self.text(#"{"Battery":\#(n)}"#))) }
        #expect(try remembered(f.log) == 3)
    }

    @Test func atMostTheBoundIsRememberedWhateverTheAgeAndTheOldestGoesFirst() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try Self.open(t, MQTTDevicesProjection(rememberedAtMost: 3))
        try await Directory(log: log).addUser("ada", password: nil)
        try await Directory(log: log).register(MQTTDeviceRegistrationTests.phone())
        let devices = MQTTDevices(log: log)
        var positions: [UInt64] = []
        for n in 1...4 {
            guard case .recorded(let position) = try await devices.report(Self.report(Self.text(#"{"n":\#(n)}"#)))
            else {
                Issue.record("message \(n) was not recorded")
                return
            }
            positions.append(position)
        }
        #expect(try remembered(log) == 3)
        // Within the window, but beyond the bound: recorded again. The newer ones are still known.
        #expect(try await devices.report(Self.report(Self.text(#"{"n":4}"#))) == .duplicate(of: positions[3]))
        #expect(try await devices.report(Self.report(Self.text(#"{"n":2}"#))) == .duplicate(of: positions[1]))
        #expect(try await devices.report(Self.report(Self.text(#"{"n":1}"#))) == .recorded(position: log.head))
        #expect(try remembered(log) == 3)
    }

    @Test func twoReportersOnOneLogFindEachOthersMessages() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let other = MQTTDevices(log: f.log)
        // Each has its own index in memory; each reads what the other wrote before deciding.
        guard case .recorded(let first) = try await f.devices.report(Self.report(Self.sensors)) else {
            Issue.record("not recorded")
            return
        }
        #expect(try await other.report(Self.report(Self.sensors)) == .duplicate(of: first))
        let second = try await other.report(Self.report(Self.text(#"{"Battery":1}"#)))
        #expect(try await f.devices.report(Self.report(Self.text(#"{"Battery":1}"#))) == .duplicate(of: f.log.head))
        #expect(second == .recorded(position: f.log.head))
        #expect(
            try f.devices.isRecorded(
                contentHash: DeviceDataReported.contentHash(topic: "cedalo/iPhone", body: Self.sensors), user: "ada",
                deviceId: "9A093D8F"))
        #expect(
            try !f.devices.isRecorded(
                contentHash: DeviceDataReported.contentHash(topic: "cedalo/iPhone", body: Self.sensors), user: "ada",
                deviceId: "IPAD"))
    }

    /// Entries in the mqttDevices projection's `recentMessages` table.
    private func remembered(_ log: EventLog) throws -> Int {
        try log.read { try $0.projection(MQTTDevicesProjection.name).count("recentMessages") }
    }

    @Test func aRedeliveryAfterTheLogIsReopenedIsStillADuplicate() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let first = try await f.devices.report(Self.report(Self.sensors))
        f.log.close()
        let reopened = try Self.open(f.t)
        defer { reopened.close() }
        f.t.clock.advance(seconds: 60)
        guard case .recorded(let position) = first else {
            Issue.record("not recorded: \(first)")
            return
        }
        #expect(try await MQTTDevices(log: reopened).report(Self.report(Self.sensors)) == .duplicate(of: position))
        #expect(try recorded(reopened).count == 1)
    }

    @Test func aBatchRecordsEachNewMessageOnceInOneWriteWithAnOutcomeForEach() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let earlier = try await f.devices.report(Self.report(Self.text(#"{"Battery":49}"#)))
        guard case .recorded(let earlierPosition) = earlier else {
            Issue.record("not recorded: \(earlier)")
            return
        }
        let head = f.log.head
        let outcomes = try await f.devices.report([
            Self.report(Self.sensors),
            Self.report(Self.text(#"{"Battery":49}"#)),  // recorded before
            Self.report(Self.text(#"{"QRContent":"cedalo.com"}"#), device: "IPAD", topic: "cedalo/iPad"),
            Self.report(Self.sensors),  // the first one again
            Self.report(Self.text("Battery 50")),  // not JSON
            Self.report(Self.sensors, device: "NOPE"),  // no such device
            Self.report(Self.sensors, topic: "cedalo/#"),  // a filter, not a topic
        ])
        #expect(outcomes.count == 7)
        #expect(outcomes[0] == .recorded(position: head + 1))
        #expect(outcomes[1] == .duplicate(of: earlierPosition))
        #expect(outcomes[2] == .recorded(position: head + 2))
        #expect(outcomes[3] == .duplicate(of: head + 1))
        guard case .refused(let notJSON) = outcomes[4], case .refused(let unknown) = outcomes[5],
            case .refused(let filter) = outcomes[6]
        else {
            Issue.record("expected three refusals, got \(outcomes[4...])")
            return
        }
        #expect(notJSON.field == "body" && notJSON.message.contains("not JSON"))
        #expect(unknown.field == "deviceId" && unknown.code == .notFound && unknown.message.contains("NOPE"))
        #expect(filter.field == "topic" && filter.message.contains("wildcard #"))
        #expect(f.log.head == head + 2)
        #expect(try recorded(f.log).map(\.deviceId) == ["9A093D8F", "9A093D8F", "IPAD"])
    }

    @Test func aSingleRefusedReportThrowsItsRefusal() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let error = await #expect(throws: MusterError.self) {
            try await f.devices.report(
                MQTTDevices.Report(
                    user: "ada", deviceId: "9A093D8F", topic: "cedalo/iPhone", body: Self.sensors,
                    document: "rcs/image/none.jpg"))
        }
        #expect(error?.field == "document")
        #expect(error?.code == .notFound)
        #expect(try recorded(f.log).isEmpty)
    }

    @Test func theLastFirstLevelSessionObjectIsKeptPerDevice() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        func session(_ device: String = "9A093D8F") throws -> JSONValue? {
            try f.devices.sessionObject(user: "ada", deviceId: device)
        }
        #expect(try session() == nil)
        try await f.devices.report(Self.report(Self.text(#"{"Battery":50,"SessionObject":{"sheet":"S1","row":3}}"#)))
        #expect(try session() == ["sheet": "S1", "row": 3])
        // A message without one, or with one below the first level, leaves it.
        try await f.devices.report(Self.report(Self.sensors))
        try await f.devices.report(Self.report(Self.text(#"{"Reply":{"SessionObject":{"sheet":"no"}}}"#)))
        #expect(try session() == ["sheet": "S1", "row": 3])
        // A new one replaces it, even with its key escaped; the other device has its own.
        try await f.devices.report(Self.report(Self.text(#"{"\u0053essionObject":{"sheet":"S2"}}"#)))
        #expect(try session() == ["sheet": "S2"])
        #expect(try session("IPAD") == nil)
        // Null clears it.
        try await f.devices.report(Self.report(Self.text(#"{"SessionObject":null}"#)))
        #expect(try session() == nil)
    }

    @Test func theProjectionAnswersTheSameAfterARebuild() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        try await f.devices.report(Self.report(Self.text(#"{"SessionObject":{"sheet":"S1"}}"#)))
        f.t.clock.advance(seconds: 700)
        let kept = try await f.devices.report(Self.report(Self.sensors))
        try await Directory(log: f.log).register(
            MQTTDeviceRegistrationTests.phone("ada", "IPAD", subscribe: "hello/ipad", publish: "moved"))
        func answers() throws -> [String] {
            [
                "\(try f.devices.devices())", "\(try f.devices.device(publishTopic: "moved") as Any)",
                "\(try f.devices.device(publishTopic: "cedalo/iPad") as Any)",
                "\(try f.devices.sessionObject(user: "ada", deviceId: "9A093D8F") as Any)",
            ]
        }
        let live = try answers()
        try await f.log.rebuild([MQTTDevicesProjection.name])
        #expect(try answers() == live)
        #expect(live[2] == "nil")
        // The hashes were rebuilt too: the kept message is a duplicate, the pruned one is not.
        guard case .recorded(let position) = kept else {
            Issue.record("not recorded: \(kept)")
            return
        }
        let outcomes = try await f.devices.report([
            Self.report(Self.sensors), Self.report(Self.text(#"{"SessionObject":{"sheet":"S1"}}"#)),
        ])
        #expect(outcomes[0] == .duplicate(of: position))
        #expect(outcomes[1] == .recorded(position: position + 2))
    }

    @Test func theBridgeLearnsOfDevicesAtTheStartThenLive() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let directory = Directory(log: f.log)
        var changes = f.devices.changes().makeAsyncIterator()
        var start: [MQTTDevices.Change] = []
        for _ in 0..<2 { start.append(try #require(try await changes.next())) }
        #expect(start.map(\.kind) == [.registered, .registered])
        #expect(Set(start.map(\.device.publishTopic)) == ["cedalo/iPhone", "cedalo/iPad"])
        #expect(start.allSatisfy { $0.position == 0 })

        try await directory.register(
            MQTTDeviceRegistrationTests.phone("ada", "IPAD", subscribe: "hello/ipad", publish: "cedalo/iPad2"))
        let removed = try #require(try await changes.next())
        let added = try #require(try await changes.next())
        #expect(removed.kind == .removed && removed.device.publishTopic == "cedalo/iPad")
        #expect(added.kind == .registered && added.device.publishTopic == "cedalo/iPad2")
        #expect(added.position == f.log.head)

        // Reports and other devices' changes are no news to it.
        try await f.devices.report(Self.report(Self.sensors))
        try await directory.register(
            PushTargetRegistered(user: "ada", deviceId: "WEB", deviceName: "Browser", platform: .fcm, token: "t"))
        try await directory.unregister(user: "ada", deviceId: "9A093D8F")
        let gone = try #require(try await changes.next())
        #expect(gone.kind == .removed && gone.device.deviceId == "9A093D8F")
        #expect(gone.position == f.log.head)
    }
}

/// A user's audit shows what their MQTT devices published.
@Suite struct DeviceDataAuditTests {
    @Test func aUsersAuditListsWhatTheirDevicesPublished() async throws {
        let f = try await DeviceDataReportTests.fixture()
        defer { f.t.directory.remove() }
        try await Directory(log: f.log).addUser("bob", password: nil)
        try await f.devices.report(DeviceDataReportTests.report(DeviceDataReportTests.sensors))
        let entries = try Audit(log: f.log).entries(Audit.Filter(user: "ada", deviceId: "9A093D8F"))
        let published = try #require(entries.last)
        #expect(published.what == .deviceDataReported)
        #expect(published.position == f.log.head)
        #expect(published.detail.contains("on cedalo/iPhone"), "\(published.detail)")
        #expect(try Audit(log: f.log).entries(Audit.Filter(user: "bob")).allSatisfy { $0.what != .deviceDataReported })
    }
}
