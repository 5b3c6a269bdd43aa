import EventLogTesting
import Foundation
import MQTT
import MQTTTesting
import MusterClient
import MusterWire
import Testing

extension MQTTEndToEndTests {
    /// The sender's DialogMessage settings (`SwitchToTab`, `SwitchDelay`, `AlertCode`, `FlashDuration`): set with
    /// `muster send --mqtt-…` or the HTTP body's `mqtt`, kept with the send, shown on the phone; refused with the
    /// option or member named.
    @Suite(.serialized) struct MQTTSenderSettingsEndToEndTests {
        typealias Stage = MQTTBridgeEndToEndTests.Stage

        @Test func theSendersSettingsReachThePhonesDialogMessage() async throws {
            let stage = try await Stage.start()
            do {
                let sent = try await stage.server.run(
                    [
                        "send", "--to", "joe", "--title", "Scan", "--body", "the crate", "--json",
                        "--mqtt-switch-to-tab", "QR", "--mqtt-switch-delay", "1000", "--mqtt-alert-code", "23",
                        "--mqtt-flash-duration", "0", MQTTBridgeEndToEndTests.form,
                    ] + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let dialog = try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
                #expect(dialog["SwitchToTab"] as? String == "QR", "\(dialog)")
                #expect(dialog["SwitchDelay"] as? Int == 1000, "\(dialog)")
                #expect(dialog["AlertCode"] as? Int == 23, "\(dialog)")
                #expect(dialog["FlashDuration"] as? Int == 0, "\(dialog)")
                let stored = try await stage.events("PayloadSent")
                let mqtt = try #require(
                    (stored.last?["body"] as? [String: Any])?["mqtt"] as? [String: Any], "\(stored)")
                #expect(mqtt["switchToTab"] as? String == "QR")

                // Without settings the DialogMessage switches nothing.
                let plain = try await stage.server.run(
                    ["send", "--to", "joe", "--title", "T", "--body", "B", "--json", MQTTBridgeEndToEndTests.form]
                        + stage.server.data)
                try #require(plain.status == 0, "\(plain)")
                let both = try await stage.phone.messages(count: 2, timeout: .seconds(20))
                try #require(both.count == 2, "\(both)")
                let object = try JSONSerialization.jsonObject(with: Data(both[1].payload)) as? [String: Any]
                let second = try #require(object?["DialogMessage"] as? [String: Any])
                #expect(second["Maintitle"] as? String == "T", "the second message: \(second)")
                #expect(second["SwitchToTab"] == nil, "\(second)")
                #expect(second["AlertCode"] == nil, "\(second)")
            } catch {
                await stage.stop()
                throw error
            }
            await stage.stop()
        }

        @Test func settingsOutOfRangeAreRefusedNamingTheOptionOrMember() async throws {
            let work = try TemporaryDirectory("send-mqtt-settings")
            defer { work.remove() }
            let data = ["--data", work.url.appendingPathComponent("data").path]
            #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
            let send = ["send", "--to", "joe", "--title", "T", "--body", "B", MQTTBridgeEndToEndTests.form]
            let delay = try await MusterProcess.run(send + ["--mqtt-switch-delay=-5"] + data)
            #expect(delay.status == 2, "\(delay)")
            #expect(delay.stderr.contains("--mqtt-switch-delay must be 0 or more, not -5"), "\(delay.stderr)")
            let tab = try await MusterProcess.run(send + ["--mqtt-switch-to-tab", "Map"] + data)
            #expect(tab.status == 2, "\(tab)")
            #expect(tab.stderr.contains("--mqtt-switch-to-tab"), "\(tab.stderr)")
            #expect(try await MusterProcess.run(["events", "--type", "PayloadSent", "--json"] + data).stdout.isEmpty)

            let server = try await ServerProcess()
            let ada = MusterClient(serverURL: server.base)
            let session = await ada.authWithInternal(username: "ada", password: "secret-ada")
            try #require(session.authValid, "\(session.errorStr)")
            let payload = try JSONValue(json: Data(MQTTBridgeEndToEndTests.form.utf8))
            do {
                _ = try await ada.send(
                    title: "T", body: "B", payload: payload, to: Recipients(users: ["ada"]),
                    mqtt: ["FlashDuration": .number(-1)])
                Issue.record("a negative flash duration was accepted")
            } catch {
                #expect(error.statusCode == 400 || error.statusCode == 422, "\(error)")
                #expect(error.message.contains("mqtt.FlashDuration"), "\(error)")
            }
            let sent = try await ada.send(
                title: "T", body: "B", payload: payload, to: Recipients(users: ["ada"]),
                mqtt: ["SwitchToTab": .string("NFC")])
            #expect(sent.recipients == ["ada"])
            #expect(await server.stop() == 0)
        }
    }
}
