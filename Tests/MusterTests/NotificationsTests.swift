import EventLog
import EventLogTesting
import Forms
import Foundation
import Muster
import MusterWire
import Testing

/// The seed's opening example: pick a favourite colour, Blue by default.
let colourPayload = Data(
    #"""
    {
        "responseTopic": "/a/b/c",
        "fields": [
            {
                 "id": "simpleDropList",
                 "type": "droplist",
                 "label": "Pick your favorite color",
                 "values": ["Red","Green","Blue"],
                 "default": "Blue"
            }
        ],
        "state": {"myStateData": 123}
    }
    """#.utf8)

@Suite struct NotificationsTests {
    struct Fixture {
        let t: TestLog
        let log: EventLog
        let directory: Directory
        let notifications: Notifications
    }

    /// A log with users joe, ann, kim and group ops = [ann, joe, ann].
    func fixture() async throws -> Fixture {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        for name in ["joe", "ann", "kim"] { try await directory.addUser(name, password: nil) }
        try await directory.defineGroup("ops", members: ["ann", "joe", "ann"])
        return Fixture(t: t, log: log, directory: directory, notifications: Notifications(log: log))
    }

    @Test func sendingToUsersGroupsAndAllRemovesDuplicatesKeepingFirstPlace() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let toUsers = try await f.notifications.send(
            to: ["kim", "joe", "kim"], title: "Example", body: "Ask", payload: colourPayload)
        #expect(toUsers.recipients == ["kim", "joe"])
        #expect(Set(toUsers.messageIds).count == 2)
        let toGroup = try await f.notifications.send(
            to: ["joe"], groups: ["ops"], title: "Example", body: "Ask", payload: colourPayload)
        #expect(toGroup.recipients == ["joe", "ann"])
        let toAll = try await f.notifications.send(all: true, title: "Example", body: "Ask", payload: colourPayload)
        #expect(toAll.recipients.sorted() == ["ann", "joe", "kim"])
        let sent = try #require(try f.log.events(EventQuery(type: "PayloadSent")).last)
        let event = try #require(try PayloadSent.decode(sent))
        #expect(event.recipients.map(\.messageId) == toAll.messageIds)
        #expect(event.responseTopic == "/a/b/c")
        #expect(event.payload == Array(colourPayload))
        #expect(sent.stream == "send/\(toAll.messageIds[0].uuidString)")
        let json = String(decoding: try #require(EventCatalogue.json(sent)), as: UTF8.self)
        #expect(json.contains(#""responseTopic":"/a/b/c""#))
        #expect(json.contains(#""simpleDropList""#))
    }

    @Test func unknownRecipientsAreRefusedByNameAndNothingIsWritten() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let error = await #expect(throws: MusterError.self) {
            try await f.notifications.send(
                to: ["joe", "zed"], groups: ["nope"], title: "T", body: "B", payload: colourPayload)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("no user named zed") == true)
        #expect(error?.message.contains("no group named nope") == true)
        #expect(f.log.head == head)
    }

    @Test func anInvalidPayloadIsRefusedWithFieldErrorsAndNothingIsWritten() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let bad = Data(
            #"{"responseTopic":"nope","fields":[{"id":"d","type":"droplist","values":["a"],"default":"z"}]}"#.utf8)
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: bad)
        }
        let fields = rejection?.problems.map(\.field) ?? []
        #expect(fields.contains("payload.responseTopic"))
        #expect(fields.contains { $0.contains("fields[0]") })
        #expect(f.log.head == head)
    }

    @Test func aPayloadAboveThePushSizeLimitIsSentAndKeptWhole() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let label = String(repeating: "x", count: 5000)
        let big = Data(#"{"responseTopic":"/a/b","fields":[{"type":"text","label":"\#(label)"}]}"#.utf8)
        // Seed 000's sendPayload stores the payload and pushes what fits: the 4,096-byte default limit bounds
        // what a push carries, not what may be sent.
        let sent = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: big)
        #expect(sent.recipients == ["joe"])
        #expect(try f.notifications.inbox(user: "joe").map(\.messageId) == sent.messageIds)
        let message = try #require(try f.notifications.message(id: sent.messageIds[0], user: "joe"))
        #expect(String(decoding: message.payload, as: UTF8.self).contains(label))
    }

    @Test func eachUserSeesOnlyTheirMessagesAndAnsweringRemovesIt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let first = try await f.notifications.send(to: ["joe", "ann"], title: "One", body: "B", payload: colourPayload)
        f.t.clock.advance(seconds: 1)
        let second = try await f.notifications.send(to: ["joe"], title: "Two", body: "B", payload: colourPayload)
        #expect(try f.notifications.inbox(user: "joe").map(\.title) == ["One", "Two"])
        #expect(try f.notifications.inbox(user: "ann").map(\.messageId) == [first.messageIds[1]])
        #expect(try f.notifications.inbox(user: "kim").isEmpty)
        let stored = try #require(try f.notifications.message(id: second.messageIds[0], user: "joe"))
        #expect(stored.payload == colourPayload)
        #expect(stored.message.responseTopic == "/a/b/c")
        #expect(try f.notifications.message(id: second.messageIds[0], user: "ann") == nil)

        let answer = try await f.notifications.respond(
            messageId: first.messageIds[0], values: Data(#"{"simpleDropList":"Green"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d1", deviceName: "HTC Desire 310"))
        #expect(answer.response.values["simpleDropList"] == .string("Green"))
        #expect(answer.response.username == "joe")
        #expect(answer.response.state == .object(["myStateData": .number(123)]))
        #expect(try f.notifications.inbox(user: "joe").map(\.title) == ["Two"])
        #expect(try f.notifications.inbox(user: "ann").count == 1)
    }

    @Test func aSecondResponseIsAConflictAndWritesNothing() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let sent = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: colourPayload)
        let id = sent.messageIds[0]
        _ = try await f.notifications.respond(
            messageId: id, values: Data("{}".utf8), as: Respondent(user: "joe", deviceId: "d1"))
        let head = f.log.head
        let again = await #expect(throws: MusterError.self) {
            try await f.notifications.respond(
                messageId: id, values: Data("{}".utf8), as: Respondent(user: "joe", deviceId: "d2"))
        }
        #expect(again?.code == .conflict)
        #expect(again?.message.contains("answered already") == true)
        #expect(f.log.head == head)
        #expect(try f.log.events(EventQuery(type: "ResponseReceived")).count == 1)
    }

    @Test func anotherUsersMessageOrAnUnknownIdIsNotFound() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let sent = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: colourPayload)
        let head = f.log.head
        for (id, user) in [(sent.messageIds[0], "ann"), (UUID(), "joe")] {
            let error = await #expect(throws: MusterError.self) {
                try await f.notifications.respond(
                    messageId: id, values: Data("{}".utf8), as: Respondent(user: user, deviceId: "d"))
            }
            #expect(error?.code == .notFound)
        }
        #expect(f.log.head == head)
    }

    @Test func invalidValuesAreRefusedNamingTheFieldsAndNothingIsWritten() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let sent = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: colourPayload)
        let head = f.log.head
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.notifications.respond(
                messageId: sent.messageIds[0], values: Data(#"{"simpleDropList":"Purple","extra":1}"#.utf8),
                as: Respondent(user: "joe", deviceId: "d", submitValue: 3))
        }
        #expect(Set(rejection?.problems.map(\.field) ?? []) == ["simpleDropList", "extra", "submitValue"])
        let notObject = await #expect(throws: FormRejection.self) {
            try await f.notifications.respond(
                messageId: sent.messageIds[0], values: Data("[1]".utf8), as: Respondent(user: "joe", deviceId: "d"))
        }
        #expect(notObject?.problems.map(\.field) == ["values"])
        let notJSON = await #expect(throws: FormRejection.self) {
            try await f.notifications.respond(
                messageId: sent.messageIds[0], values: Data(#"{"simpleDropList":"Red",}"#.utf8),
                as: Respondent(user: "joe", deviceId: "d"))
        }
        #expect(notJSON?.problems.map(\.field) == ["values"])
        #expect(notJSON?.problems.first?.message.hasPrefix("is not valid JSON (line 1, column 25: ") == true)
        #expect(f.log.head == head)
        #expect(try f.notifications.inbox(user: "joe").count == 1)
    }

    @Test func theResponseTakesTheRegisteredDeviceNameAndTheStoreClock() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.directory.register(
            PushTargetRegistered(user: "joe", deviceId: "d1", deviceName: "Pixel", platform: .fcm, token: nil))
        let payload = Data(
            #"{"responseTopic":"/a/b","fields":[{"id":"now","type":"currentDateTime"},{"id":"at","type":"currentLocation"}]}"#
                .utf8)
        let sent = try await f.notifications.send(to: ["joe", "ann"], title: "T", body: "B", payload: payload)
        let answer = try await f.notifications.respond(
            messageId: sent.messageIds[0], values: Data("{}".utf8),
            as: Respondent(user: "joe", deviceId: "d1", at: Notifications.Location(latitude: 48.85, longitude: 2.35)))
        #expect(answer.response.deviceName == "Pixel")
        let expected = Date(timeIntervalSince1970: Double(f.t.clock.now) / 1_000_000).formatted(.iso8601)
        #expect(answer.response.values["now"] == .string(expected))
        #expect(answer.response.values["at"] == .object(["longitude": .number(2.35), "latitude": .number(48.85)]))
        // Without a location a currentLocation field has no value: refused, naming it.
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.notifications.respond(
                messageId: sent.messageIds[1], values: Data("{}".utf8), as: Respondent(user: "ann", deviceId: "d9"))
        }
        #expect(rejection?.problems.map(\.field) == ["at"])
    }

    @Test func inboxesSurviveReopeningAndRebuildingAndVerifyIsClean() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let sent = try await f.notifications.send(to: ["joe", "ann"], title: "T", body: "B", payload: colourPayload)
        _ = try await f.notifications.send(groups: ["ops"], title: "U", body: "B", payload: colourPayload)
        _ = try await f.notifications.respond(
            messageId: sent.messageIds[0], values: Data("{}".utf8), as: Respondent(user: "joe", deviceId: "d"))
        let joe = try f.notifications.inbox(user: "joe")
        let ann = try f.notifications.inbox(user: "ann")
        #expect(joe.count == 1 && ann.count == 2)
        f.log.close()

        let log = try f.t.open { $0.projections += MusterDomain.projections }
        let reopened = Notifications(log: log)
        #expect(try reopened.inbox(user: "joe") == joe)
        #expect(try reopened.inbox(user: "ann") == ann)
        try await log.rebuild([InboxProjection.name])
        #expect(try reopened.inbox(user: "joe") == joe)
        #expect(try reopened.inbox(user: "ann") == ann)
        let report = try await log.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        // The answered message is still known as answered after the rebuild.
        let again = await #expect(throws: MusterError.self) {
            try await reopened.respond(
                messageId: sent.messageIds[0], values: Data("{}".utf8), as: Respondent(user: "joe", deviceId: "d"))
        }
        #expect(again?.code == .conflict)
    }

    @Test func aListenerReceivesAResponseRecordedAfterItStarted() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let sent = try await f.notifications.send(to: ["joe", "ann"], title: "T", body: "B", payload: colourPayload)
        let matching = f.notifications.listen(try TopicFilter("/a/+/c"))
        let other = f.notifications.listen(try TopicFilter("/x/#"), from: 1)
        _ = try await f.notifications.respond(
            messageId: sent.messageIds[1], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "ann", deviceId: "d"))
        var iterator = matching.makeAsyncIterator()
        let received = try #require(try await iterator.next())
        let response = try ResponseObject(json: received.json)
        #expect(response.username == "ann")
        #expect(response.values["simpleDropList"] == .string("Red"))
        // A filter for another topic sees nothing, up to a later response on its topic.
        let xPayload = Data(#"{"responseTopic":"/x/y","fields":[]}"#.utf8)
        let x = try await f.notifications.send(to: ["kim"], title: "T", body: "B", payload: xPayload)
        _ = try await f.notifications.respond(
            messageId: x.messageIds[0], values: Data("{}".utf8), as: Respondent(user: "kim", deviceId: "d"))
        var otherIterator = other.makeAsyncIterator()
        let first = try ResponseObject(json: try #require(try await otherIterator.next()).json)
        #expect(first.responseTopic == "/x/y")
        #expect(first.username == "kim")
    }
}

@Suite struct LiveStreamTests {
    @Test func aDocumentPublishedOnATopicReachesItsListenersAsIsAndOthersNot() async throws {
        let f = try await NotificationsTests().fixture()
        defer { f.t.directory.remove() }
        let listener = f.notifications.listen(try TopicFilter("/plant/+/alarms"))
        let position = try await f.notifications.publish(
            Data(#"{ "pump": 3, "level": "high" }"#.utf8), on: "/plant/north/alarms")
        try await f.notifications.publish(Data(#"{"ignored":true}"#.utf8), on: "/plant/north/status")
        var iterator = listener.makeAsyncIterator()
        let delivery = try #require(try await iterator.next())
        #expect(delivery.kind == .publish)
        #expect(delivery.position == position)
        #expect(delivery.topic == "/plant/north/alarms")
        #expect(try JSONValue(json: delivery.json) == JSONValue(json: Data(#"{"pump":3,"level":"high"}"#.utf8)))
        #expect(!String(decoding: delivery.json, as: UTF8.self).contains(" "), "stored compact")
    }

    @Test(arguments: ["plant/alarms", "/plant//alarms", "/plant/+/alarms"])
    func publishingOnAMalformedTopicIsRefusedAndWritesNothing(topic: String) async throws {
        let f = try await NotificationsTests().fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let error = await #expect(throws: MusterError.self) {
            try await f.notifications.publish(Data("{}".utf8), on: topic)
        }
        #expect(error?.code == .invalidArgument)
        #expect(f.log.head == head)
    }

    @Test func publishingInvalidJSONIsRefusedAndWritesNothing() async throws {
        let f = try await NotificationsTests().fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        await #expect(throws: (any Error).self) {
            try await f.notifications.publish(Data("{oops".utf8), on: "/a/b")
        }
        #expect(f.log.head == head)
    }

    @Test func anInboxStreamResumedFromAPositionMissesNothingAndSeesOnlyItsUser() async throws {
        let f = try await NotificationsTests().fixture()
        defer { f.t.directory.remove() }
        let start = f.log.head
        let first = try await f.notifications.send(to: ["joe", "ann"], title: "One", body: "B", payload: colourPayload)
        _ = try await f.notifications.send(to: ["ann"], title: "Not joe's", body: "B", payload: colourPayload)
        _ = try await f.notifications.respond(
            messageId: first.messageIds[0], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d"))
        // Started after all of it happened, from the position before: everything is replayed, in order.
        var updates = f.notifications.inboxUpdates(user: "joe", from: start + 1).makeAsyncIterator()
        let arrived = try #require(try await updates.next())
        guard case .arrived(let message) = arrived.change else {
            Issue.record("expected the arrival first, got \(arrived)")
            return
        }
        #expect(message.messageId == first.messageIds[0])
        #expect(message.title == "One")
        let answered = try #require(try await updates.next())
        #expect(answered.change == .answered(messageId: first.messageIds[0]))
        #expect(answered.position > arrived.position)
        // Then live.
        let later = try await f.notifications.send(to: ["joe"], title: "Two", body: "B", payload: colourPayload)
        let live = try #require(try await updates.next())
        guard case .arrived(let next) = live.change else {
            Issue.record("expected a live arrival, got \(live)")
            return
        }
        #expect(next.messageId == later.messageIds[0])
    }
}

@Suite struct TopicFilterTests {
    @Test(arguments: [
        ("/a/b/c", "/a/b/c", true),
        ("/a/b/c", "/a/b", false),
        ("/a/b/c", "/a/b/c/d", false),
        ("/a/+/c", "/a/x/c", true),
        ("/a/+/c", "/a/x/y", false),
        ("/a/+", "/a/x/c", false),
        ("/+", "/a", true),
        ("/a/#", "/a", true),
        ("/a/#", "/a/b/c", true),
        ("/a/#", "/b/a", false),
        ("/#", "/anything/at/all", true),
        ("/+/b/#", "/x/b/y/z", true),
        ("/+/b/#", "/x/c/y", false),
    ])
    func matching(filter: String, topic: String, expected: Bool) throws {
        #expect(try TopicFilter(filter).matches(topic) == expected)
    }

    @Test(arguments: ["a/b", "/a//b", "/a/#/b", "/a/b+", "/a#", ""])
    func malformedFiltersAreRefused(filter: String) {
        #expect(throws: MusterError.self) { try TopicFilter(filter) }
    }
}

@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(1_767_225_600_123_000), "2026-01-01T00:00:00.123Z"),
        (1_767_225_600_000_999, "2026-01-01T00:00:00.000Z"),
        (1_767_225_600_999_999, "2026-01-01T00:00:00.999Z"),
        (1_767_225_601_001_000, "2026-01-01T00:00:01.001Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func microsecondsPrintAsUTCWithTheirExactMilliseconds(micros: Int64, text: String) {
        #expect(Timestamp.iso8601(microseconds: micros) == text)
    }

    @Test func everyWholeMillisecondPrintsAsItself() {
        // The binary fraction of a Double date printed some of these one millisecond early.
        for millis in Int64(0)..<1000 {
            let text = Timestamp.iso8601(microseconds: 1_767_225_600_000_000 + millis * 1000)
            #expect(text.hasSuffix(String(format: ".%03dZ", millis)), "\(millis) → \(text)")
        }
    }
}
