import EventLog
import EventLogTesting
import Foundation
import Migrations
import Muster
import Testing

/// An MQTT device is registered with its two topics: `token` (its SubscribeTopic) and `publishTopic`.
@Suite struct MQTTDeviceRegistrationTests {
    struct Fixture {
        let t: TestLog
        let log: EventLog
        let directory: Directory
        let devices: MQTTDevices
    }

    static func fixture() async throws -> Fixture {
        let t = try TestLog()
        let log = try t.open {
            $0.projections += MusterDomain.projections
            $0.upcasters = Migrations.upcasters
        }
        let directory = Directory(log: log)
        try await directory.addUser("ada", password: nil)
        try await directory.addUser("bob", password: nil)
        return Fixture(t: t, log: log, directory: directory, devices: MQTTDevices(log: log))
    }

    static func phone(
        _ user: String = "ada", _ deviceId: String = "9A093D8F", subscribe: String? = "hello/world",
        publish: String? = "cedalo/iPhone", platform: PushTargetRegistered.Platform = .mqtt
    ) -> PushTargetRegistered {
        PushTargetRegistered(
            user: user, deviceId: deviceId, deviceName: "Cedalo iPhone", platform: platform, token: subscribe,
            publishTopic: publish)
    }

    @Test func anMQTTDeviceIsRegisteredWithBothTopicsAndFoundByItsPublishTopic() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        try await f.directory.register(Self.phone())
        #expect(try f.directory.devices(user: "ada") == [Self.phone()])
        let device = try #require(try f.devices.device(publishTopic: "cedalo/iPhone"))
        #expect(
            device
                == MQTTDevice(
                    namespace: "default", user: "ada", deviceId: "9A093D8F", deviceName: "Cedalo iPhone",
                    subscribeTopic: "hello/world", publishTopic: "cedalo/iPhone"))
        #expect(try f.devices.device(publishTopic: "cedalo/iPhone", namespace: "acme") == nil)
        #expect(try f.devices.device(publishTopic: "hello/world") == nil)
        #expect(try f.devices.publishTopics() == ["cedalo/iPhone"])
        let stored = try #require(try f.log.events(EventQuery(type: PushTargetRegistered.type)).last)
        let json = String(decoding: try #require(EventCatalogue.json(stored)), as: UTF8.self)
        #expect(json.contains(#""publishTopic":"cedalo/iPhone""#))
        #expect(json.contains(#""token":"hello/world""#))
    }

    /// (platform, subscribe topic, publish topic, the argument named, a part of the message).
    static let refusals: [(PushTargetRegistered.Platform, String?, String?, String, String)] = [
        (.mqtt, nil, "p", "token", "needs its SubscribeTopic"),
        (.mqtt, "", "p", "token", "must not be empty"),
        (.mqtt, "hello/#", "p", "token", "wildcard #"),
        (.mqtt, "s", nil, "publishTopic", "needs its PublishTopic"),
        (.mqtt, "s", "", "publishTopic", "must not be empty"),
        (.mqtt, "s", "a/+/c", "publishTopic", "wildcard +"),
        (.mqtt, "s", "a\u{0}b", "publishTopic", "NUL"),
        (.mqtt, "s", String(repeating: "é", count: 32_768), "publishTopic", "65536 bytes long"),
        (.mqtt, "a/b", "a/b", "token", "would take the forms it publishes to the device for messages from it"),
        (.fcm, "t", "p", "publishTopic", "for mqtt devices only"),
    ]

    @Test(arguments: refusals)
    func aBadTopicIsRefusedNamingItsArgumentAndWritesNothing(
        platform: PushTargetRegistered.Platform, subscribe: String?, publish: String?, argument: String,
        reason: String
    ) async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let error = await #expect(throws: MusterError.self) {
            try await f.directory.register(Self.phone(subscribe: subscribe, publish: publish, platform: platform))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == argument)
        #expect(error?.message.hasPrefix(argument) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(f.log.head == head)
    }

    @Test func aTopicOfTheMostBytesMQTTAllowsIsTaken() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        let longest = String(repeating: "a/", count: MQTTTopic.maximumBytes / 2) + "z"
        #expect(longest.utf8.count == MQTTTopic.maximumBytes)
        let longestToo = String(repeating: "b/", count: MQTTTopic.maximumBytes / 2) + "z"
        try await f.directory.register(Self.phone(subscribe: longestToo, publish: longest))
        #expect(try f.devices.device(publishTopic: longest)?.deviceId == "9A093D8F")
    }

    @Test func twoDevicesCannotShareAPublishTopic() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        try await f.directory.register(Self.phone())
        let head = f.log.head
        let taken = await #expect(throws: MusterError.self) {
            try await f.directory.register(Self.phone("bob", "B0B", subscribe: "bob/in"))
        }
        #expect(taken?.code == .conflict)
        #expect(taken?.field == "publishTopic")
        #expect(taken?.message.contains(#"device "9A093D8F" of user ada"#) == true, "\(taken?.message ?? "")")
        #expect(f.log.head == head)
        // The device itself may register again with it.
        try await f.directory.register(Self.phone(subscribe: "hello/mars"))
        // Once ada's device moves to another topic, bob's may take hers.
        try await f.directory.register(Self.phone(publish: "cedalo/iPad"))
        try await f.directory.register(Self.phone("bob", "B0B", subscribe: "bob/in"))
        #expect(try f.devices.device(publishTopic: "cedalo/iPhone")?.user == "bob")
        #expect(try f.devices.device(publishTopic: "cedalo/iPad")?.user == "ada")
        // And once it is unregistered, its topic is free.
        try await f.directory.unregister(user: "ada", deviceId: "9A093D8F")
        #expect(try f.devices.device(publishTopic: "cedalo/iPad") == nil)
        #expect(try f.devices.publishTopics(namespace: "default") == ["cedalo/iPhone"])
        try await f.directory.addUser("cy", password: nil, namespace: "acme")
        try await f.directory.register(Self.phone("cy", "C1", publish: "cedalo/iPad"), namespace: "acme")
        #expect(try Set(f.devices.publishTopics()) == ["cedalo/iPhone", "cedalo/iPad"])
        #expect(try f.devices.devices().map(\.namespace) == ["acme", "default"])
    }

    /// (bob's subscribe topic, bob's publish topic, the argument named, a part of the message); ada's phone has
    /// hello/world and cedalo/iPhone.
    static let clashes: [(String, String, String, String)] = [
        ("hello/world", "bob/out", "token", "is already where Muster publishes to"),
        ("cedalo/iPhone", "bob/out", "token", "is the publish topic of"),
        ("bob/in", "hello/world", "publishTopic", "is where Muster publishes to"),
        ("bob/in", "cedalo/iPhone", "publishTopic", "is already the publish topic of"),
    ]

    /// One broker serves every namespace, and the bridge knows a device by its topic alone: a topic taken in one
    /// namespace is taken in all, and a device's two topics are no other device's either.
    @Test(arguments: clashes)
    func aTopicOfAnotherDeviceIsRefusedInEveryNamespace(
        subscribe: String, publish: String, argument: String, reason: String
    ) async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        try await f.directory.register(Self.phone())
        try await f.directory.addUser("bob", password: nil, namespace: "acme")
        let head = f.log.head
        for namespace in ["default", "acme"] {
            let refused = await #expect(throws: MusterError.self, "in \(namespace)") {
                try await f.directory.register(
                    Self.phone("bob", "B0B", subscribe: subscribe, publish: publish), namespace: namespace)
            }
            #expect(refused?.code == .conflict)
            #expect(refused?.field == argument)
            #expect(refused?.message.contains(reason) == true, "\(refused?.message ?? "")")
            // Another namespace's device is not named to it.
            let holder = namespace == "default" ? #"device "9A093D8F" of user ada"# : "a device of another namespace"
            #expect(refused?.message.contains(holder) == true, "\(refused?.message ?? "")")
        }
        #expect(f.log.head == head)
    }

    @Test func aDeviceRegisteredBy010ReadsWithNoPublishTopicAfterTheUpgrade() async throws {
        let f = try await Self.fixture()
        defer { f.t.directory.remove() }
        // As 0.1.0 wrote it: schema 1, no publish topic at the end of the body.
        let body = EventBytesTests.bytes("036164610264310550686f6e650366636d0174")
        try await f.log.append(
            AppendRequest(
                stream: "devices/ada",
                events: [
                    NewEvent(
                        type: PushTargetRegistered.type, schemaVersion: 1, body: .binary(body), actor: "cli")
                ]))
        try await f.log.rebuild([DirectoryProjection.name, MQTTDevicesProjection.name])
        #expect(
            try f.directory.devices(user: "ada")
                == [PushTargetRegistered(user: "ada", deviceId: "d1", deviceName: "Phone", platform: .fcm, token: "t")])
        #expect(try f.devices.devices().isEmpty)
    }
}
