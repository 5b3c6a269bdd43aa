import EventLogTesting
import Foundation
import MQTT
import MQTTTesting
import Testing

/// The broker, the server bridged to it (`muster serve --mqtt`), and Joe's phone (an independent MQTT client running
/// as the MQTT Connect app of seed 001), subscribed to its topic; Joe's device registered.
struct MQTTStage {
    let broker: MQTTBroker
    let server: ServerProcess
    let phone: MQTTTesting.MQTTDevice
    let work: TemporaryDirectory
    static let inTopic = "phones/joe/in"
    static let outTopic = "phones/joe/out"
    static let deviceId = "9A093D8F"

    /// Starts it all.
    /// - Parameters:
    ///   - brokerSettings: more lines for mosquitto.conf.
    ///   - phoneWrites: the topics the phone may publish to, besides its own publish topic.
    ///   - serveArguments: more options for `muster serve` (for example `--mqtt-receipt-timeout 1`).
    static func start(
        brokerSettings: [String] = [], phoneWrites: [String] = [], serveArguments: [String] = []
    ) async throws -> MQTTStage {
        let broker = try await MQTTBroker(
            users: [
                .everything(name: "muster", password: "bridge-secret"),
                MQTTBrokerUser(
                    name: "phone", password: "phone-secret", read: [inTopic], write: [outTopic] + phoneWrites),
            ], settings: brokerSettings)
        let work = try TemporaryDirectory("mqtt-e2e")
        let passwordFile = work.url.appendingPathComponent("mqtt-password")
        try Data("bridge-secret\n".utf8).write(to: passwordFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
        let server = try await ServerProcess(
            extraArguments: [
                "--mqtt", broker.url, "--mqtt-user", "muster", "--mqtt-password-file", passwordFile.path,
            ] + serveArguments)
        for arguments in [
            ["users", "add", "joe", "--password-stdin"],
            [
                "devices", "register", "--user", "joe", "--device-id", deviceId, "--device-name", "Joe's iPhone",
                "--platform", "mqtt", "--token", inTopic, "--publish-topic", outTopic,
            ],
        ] {
            let done = try await server.run(arguments + server.data, stdin: "secret-joe\n")
            try #require(done.status == 0, "\(done)")
        }
        let phone = try await MQTTTesting.MQTTDevice(broker.configuration(user: "phone", clientID: "joe-iphone"))
        try await phone.subscribe(inTopic)
        let stage = MQTTStage(broker: broker, server: server, phone: phone, work: work)
        // What the phone publishes before the bridge subscribed to its topic would reach no one.
        try await stage.waitForSubscription(outTopic)
        return stage
    }

    /// Runs `body` on a started stage and stops the stage afterwards, also when `body` throws.
    static func with(
        brokerSettings: [String] = [], phoneWrites: [String] = [], serveArguments: [String] = [],
        _ body: (MQTTStage) async throws -> Void
    ) async throws {
        let stage = try await start(
            brokerSettings: brokerSettings, phoneWrites: phoneWrites, serveArguments: serveArguments)
        do {
            try await body(stage)
        } catch {
            await stage.stop()
            throw error
        }
        await stage.stop()
    }

    func stop() async {
        await phone.close()
        _ = await server.stop()
        await broker.stop()
        work.remove()
    }

    /// The CLI's `events --type T --json` lines.
    func events(_ type: String) async throws -> [[String: Any]] {
        let listed = try await server.run(["events", "--type", type, "--json"] + server.data)
        try #require(listed.status == 0, "\(listed)")
        return try listed.jsonLines()
    }

    /// Waits (bounded) until there are `count` events of `type`.
    func waitForEvents(_ type: String, count: Int, seconds: Double = 20) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let found = try await events(type)
            if found.count >= count || ContinuousClock.now > deadline { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The message a `DeviceDataReported` event recorded, as JSON.
    static func recordedMessage(_ event: [String: Any]) throws -> [String: Any] {
        let body = try #require(event["body"] as? [String: Any], "\(event)")
        if let message = body["body"] as? [String: Any] { return message }
        let text = try #require(body["body"] as? String, "\(body)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The next message the phone receives, as JSON.
    func nextOnPhone() async throws -> [String: Any] {
        let message = try #require(try await phone.messages(count: 1, timeout: .seconds(20)).last)
        return try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
    }

    /// Publishes `text` from the phone as the app does with QoS 1: again after a failure (no connection, no PUBACK
    /// in time) until the broker acknowledged it, for at most `seconds`.
    func publishUntilAcknowledged(_ text: String, to topic: String = outTopic, seconds: Double = 30) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            do {
                try await phone.client.publish(topic: topic, payload: Array(text.utf8), timeout: .seconds(2))
                return
            } catch {
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Waits (bounded) until the bridge is subscribed to `topic` (`GET /api/v1/mqtt/status`), or with `gone` until
    /// it is not any more.
    func waitForSubscription(_ topic: String, gone: Bool = false, seconds: Double = 20) async throws {
        let ada = try await server.login("ada", password: "secret-ada")
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let status = try await server.send("GET", "api/v1/mqtt/status", token: ada)
            if (status.object["subscriptions"] as? [String])?.contains(topic) == !gone { return }
            try #require(
                ContinuousClock.now < deadline,
                "the bridge \(gone ? "unsubscribed from" : "subscribed to") \(topic): \(status.text)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The bridge's counts from `GET /api/v1/mqtt/status`, as ada.
    func counts() async throws -> [String: Int] {
        let ada = try await server.login("ada", password: "secret-ada")
        let status = try await server.send("GET", "api/v1/mqtt/status", token: ada)
        try #require(status.status == 200, "\(status.text)")
        return try #require(status.object["counts"] as? [String: Int], "\(status.text)")
    }

    /// Waits (bounded) until the bridge's counts satisfy `condition`; returns the last counts read.
    func waitForCounts(seconds: Double = 20, _ condition: ([String: Int]) -> Bool) async throws -> [String: Int] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let counts = try await counts()
            if condition(counts) || ContinuousClock.now > deadline { return counts }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
