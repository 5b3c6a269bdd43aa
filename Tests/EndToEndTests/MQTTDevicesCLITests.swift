import EventLogTesting
import Foundation
import MusterClient
import MusterWire
import Testing

/// `muster devices register --platform mqtt --token SUBSCRIBE_TOPIC --publish-topic PUBLISH_TOPIC` through the
/// binary, on a data directory and over HTTP, and the Swift SDK's `registerDevice` against a real server.
@Suite struct MQTTDevicesCLITests {
    static let mqtt = ["--platform", "mqtt", "--token", "hello/world", "--publish-topic", "cedalo/iPhone"]

    @Test func anMQTTDeviceIsRegisteredAndListedWithBothTopicsFromADataDirectory() async throws {
        let work = try TemporaryDirectory("mqtt-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let register = ["devices", "register", "--user", "joe", "--device-id", "9A093D8F", "--device-name", "iPhone"]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)

        let registered = try await MusterProcess.run(register + Self.mqtt + data)
        #expect(registered.status == 0, "\(registered)")
        #expect(try registered.json()["publishTopic"] as? String == "cedalo/iPhone")
        #expect(try registered.json()["token"] as? String == "hello/world")
        let table = try await MusterProcess.run(["devices", "list"] + data)
        #expect(table.stdout.contains("PUBLISH TOPIC"), "\(table)")
        #expect(table.stdout.contains("cedalo/iPhone"), "\(table)")
        let stored = try await MusterProcess.run(["events", "--type", "PushTargetRegistered", "--json"] + data)
        #expect(stored.stdout.contains(#""publishTopic":"cedalo/iPhone""#), "\(stored)")

        let missing = try await MusterProcess.run(
            register + ["--platform", "mqtt", "--token", "hello/world"] + data)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("publishTopic"), "\(missing.stderr)")
        let wildcard = try await MusterProcess.run(
            register + ["--platform", "mqtt", "--token", "hello/+", "--publish-topic", "p"] + data)
        #expect(wildcard.status == 2, "\(wildcard)")
        #expect(wildcard.stderr.contains("token"), "\(wildcard.stderr)")
        #expect(try await MusterProcess.run(["users", "add", "ann"] + data).status == 0)
        let taken = try await MusterProcess.run(
            ["devices", "register", "--user", "ann", "--device-id", "A", "--device-name", "A"] + Self.mqtt + data)
        #expect(taken.status == 3, "\(taken)")
        #expect(taken.stderr.contains("9A093D8F"), "\(taken.stderr)")
    }

    @Test func anMQTTDeviceIsRegisteredOverHTTPByTheCommandLineAndTheSDK() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("mqtt-remote-cli")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let registered = try await ada.run(
            ["devices", "register", "--device-id", "9A093D8F", "--device-name", "iPhone"] + Self.mqtt)
        #expect(registered.status == 0, "\(registered)")
        #expect(try registered.json()["publishTopic"] as? String == "cedalo/iPhone")
        let listed = try await ada.run(["devices", "list", "--json"])
        #expect(listed.stdout.contains(#""publishTopic":"cedalo/iPhone""#), "\(listed)")
        let refused = try await ada.run(
            [
                "devices", "register", "--device-id", "X", "--device-name", "X", "--platform", "fcm", "--token", "t",
                "--publish-topic", "p",
            ])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("publishTopic"), "\(refused.stderr)")

        let app = MusterClient(serverURL: server.base)
        #expect(await app.authWithInternal(username: "ada", password: "secret-ada").authValid)
        let tablet = try await app.registerDevice(
            deviceId: "IPAD", deviceName: "iPad", platform: .mqtt, token: "hello/mars", publishTopic: "cedalo/iPad")
        #expect(tablet.publishTopic == "cedalo/iPad")
        let devices = try await app.devices()
        #expect(Set(devices.compactMap(\.publishTopic)) == ["cedalo/iPhone", "cedalo/iPad"])
        do {
            _ = try await app.registerDevice(
                deviceId: "IPAD2", deviceName: "iPad", platform: .mqtt, token: "t", publishTopic: "cedalo/iPad")
            Issue.record("a taken publish topic was accepted")
        } catch {
            #expect("\(error)".contains("IPAD"), "\(error)")
        }
    }
}
