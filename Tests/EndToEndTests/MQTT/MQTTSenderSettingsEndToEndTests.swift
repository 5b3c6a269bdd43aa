import EventLogTesting
import Foundation
import MQTT
import MQTTTesting
import MusterClient
import MusterWire
import Testing

extension MQTTEndToEndTests {
    /// The sender's DialogMessage settings (`SwitchToTab`, `SwitchDelay`, `AlertCode`, `FlashDuration`,
    /// `InstantSender`): set with
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

        /// A form whose only input sends its value the moment it is entered: no button, so the added Submit's 0 is
        /// its submit value (a form with buttons refuses a response that names none of them).
        static let instantForm = """
            {"responseTopic": "/mqtt/age", "fields": [{"id": "age", "type": "inputInteger", "label": "Your age"}]}
            """

        @Test func anInstantValueAloneAnswersTheLastDialogMessage() async throws {
            let stage = try await Stage.start()
            do {
                let sent = try await stage.server.run(
                    [
                        "send", "--to", "joe", "--title", "Age", "--body", "B", "--json", "--mqtt-instant-sender",
                        "age", Self.instantForm,
                    ] + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let messageId = try #require((try sent.json()["messageIds"] as? [String])?.first)
                let dialog = try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
                let inputs = try #require(dialog["InputFields"] as? [[String: Any]])
                #expect(inputs.map { $0["Key"] as? String } == ["age"])
                #expect(inputs.map { $0["InstantSender"] as? Bool } == [true], "\(inputs)")
                // The message is the device's last DialogMessage once its delivery is recorded.
                try #require(try await stage.waitForEvents("PushDelivered", count: 1).count == 1)

                // A member that is no instant field answers nothing; the instant field's value alone does.
                try await stage.phone.publish(#"{"iPhoneID":"9A093D8F","Humidity":40}"#, to: Stage.outTopic)
                try await stage.phone.publish(#"{"iPhoneID":"9A093D8F","age":"42"}"#, to: Stage.outTopic)
                let responses = try await stage.waitForEvents("ResponseReceived", count: 1)
                try #require(responses.count == 1, "\(responses) \(stage.server.running.stderr)")
                let body = try #require(responses[0]["body"] as? [String: Any])
                #expect((body["messageId"] as? String)?.lowercased() == messageId.lowercased(), "\(body)")
                let flat = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                #expect(flat.contains(#""age":42"#), "\(flat)")
                #expect(flat.contains(#""submitValue":0"#), "\(flat)")
                #expect(try await stage.waitForEvents("DeviceDataReported", count: 2).count == 2)
                #expect(try await stage.events("ResponseReceived").count == 1)

                // A reply the domain refuses is recorded as refused, with why, and the audit shows it.
                let unknown = "0e984725-c51c-4bf4-9960-e1c80e27aba0"
                try await stage.phone.publish(
                    #"{"iPhoneID":"9A093D8F","musterMessageId":"\#(unknown)","musterSubmitValue":0}"#,
                    to: Stage.outTopic)
                let refusals = try await stage.waitForEvents("ReplyRefused", count: 1)
                try #require(refusals.count == 1, "\(refusals)")
                let refusal = try #require(refusals[0]["body"] as? [String: Any])
                #expect((refusal["messageId"] as? String)?.lowercased() == unknown, "\(refusal)")
                #expect((refusal["reason"] as? String)?.contains("has no message") == true, "\(refusal)")
                let reports = try await stage.events("DeviceDataReported")
                #expect(refusal["report"] as? Int == reports.last?["position"] as? Int, "\(refusal) \(reports)")
                let audit = try await stage.server.run(["audit", "--user", "joe", "--json"] + stage.server.data)
                #expect(audit.stdout.contains(#""what":"replyRefused""#), "\(audit.stdout)")
                #expect(try await stage.events("ResponseReceived").count == 1)

                // An id that is not an input field of the form is refused, and nothing is sent.
                let refused = try await stage.server.run(
                    [
                        "send", "--to", "joe", "--title", "T", "--body", "B", "--mqtt-instant-sender", "Send",
                        MQTTBridgeEndToEndTests.form,
                    ] + stage.server.data)
                #expect(refused.status != 0, "\(refused)")
                #expect(
                    refused.stderr.contains(#"InstantSender names "Send", which is not an input field"#),
                    "\(refused.stderr)")
                #expect(refused.stderr.contains("name, agree"), "the form's input fields are listed: \(refused.stderr)")
                #expect(try await stage.events("PayloadSent").count == 1)
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
            // A negative value after a space is the option's value, as after `=`: refused with why, not "missing".
            for spelling in [["--mqtt-switch-delay=-5"], ["--mqtt-switch-delay", "-5"]] {
                let delay = try await MusterProcess.run(send + spelling + data)
                #expect(delay.status == 2, "\(delay)")
                #expect(delay.stderr.contains("--mqtt-switch-delay must be 0 or more, not -5"), "\(delay.stderr)")
            }
            let tab = try await MusterProcess.run(send + ["--mqtt-switch-to-tab", "Map"] + data)
            #expect(tab.status == 2, "\(tab)")
            #expect(tab.stderr.contains("--mqtt-switch-to-tab"), "\(tab.stderr)")
            #expect(try await MusterProcess.run(["events", "--type", "PayloadSent", "--json"] + data).stdout.isEmpty)
            let noAlert = try await MusterProcess.run(send + ["--mqtt-alert-code", "-1"] + data)
            #expect(noAlert.status == 0, "AlertCode -1 is taken (and stored as none): \(noAlert)")

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
            do {
                _ = try await ada.send(
                    title: "T", body: "B", payload: payload, to: Recipients(users: ["ada"]),
                    mqtt: ["InstantSender": ["agree", "nope"]])
                Issue.record("an instant field the form does not have was accepted")
            } catch {
                #expect(error.statusCode == 400, "\(error)")
                #expect(error.message.contains(#"InstantSender names "nope""#), "\(error)")
            }
            // Not an object: said in JSON's words, not Swift's ("a Dictionary<String, Any>").
            let ada2 = try await server.login("ada", password: "secret-ada")
            let notObject = try await server.send(
                "POST", "api/v1/notifications", token: ada2,
                json: #"{"to":["ada"],"title":"T","body":"B","payload":\#(MQTTBridgeEndToEndTests.form),"mqtt":"QR"}"#)
            #expect(notObject.status == 400, "\(notObject.text)")
            #expect(notObject.text.contains("member mqtt: expected a JSON object"), "\(notObject.text)")
            let sent = try await ada.send(
                title: "T", body: "B", payload: payload, to: Recipients(users: ["ada"]),
                mqtt: ["SwitchToTab": .string("NFC"), "InstantSender": ["name"]])
            #expect(sent.recipients == ["ada"])
            #expect(await server.stop() == 0)
        }
    }
}
