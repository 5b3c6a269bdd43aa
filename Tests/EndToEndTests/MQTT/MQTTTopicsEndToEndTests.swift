import Foundation
import MQTT
import MQTTTesting
import MusterClient
import MusterWire
import Testing

extension MQTTEndToEndTests {
    /// Response topics reach MQTT: a rule engine subscribed to `muster/<topic>` at the broker receives what the
    /// phone's reply answered, as a Server-Sent Events listener of the topic would.
    @Suite(.serialized) struct MQTTTopicsEndToEndTests {
        typealias Stage = MQTTBridgeEndToEndTests.Stage

        @Test func aResponseToTheFormReachesAnMQTTSubscriberOfItsTopic() async throws {
            let stage = try await Stage.start()
            let rules = try await MQTTTesting.MQTTDevice(stage.broker.configuration(user: "muster", clientID: "rules"))
            do {
                try await rules.subscribe("muster/mqtt/#")
                let sent = try await stage.server.run(
                    [
                        "send", "--to", "joe", "--title", "Roll call", "--body", "Here?", "--json",
                        MQTTBridgeEndToEndTests.form,
                    ]
                        + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let dialog = try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
                let option = try #require((dialog["Options"] as? [[String: Any]])?.first)
                var reply = try #require(option["ReplyObject"] as? [String: Any])
                reply["name"] = "Joe"
                reply["agree"] = "True"
                reply["iPhoneID"] = "9A093D8F"
                let text = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
                try await stage.phone.publish(text, to: Stage.outTopic)

                let message = try #require(try await rules.messages(count: 1, timeout: .seconds(20)).first)
                #expect(message.topic == "muster/mqtt/roll")
                let response = try #require(
                    try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any], "\(message)")
                let values = try #require(response["values"] as? [String: Any], "\(response)")
                #expect(values["name"] as? String == "Joe", "\(response)")
                #expect(response["deviceId"] as? String == "9A093D8F", "\(response)")
                #expect(
                    (response["state"] as? [String: Any])?["shift"] as? Int == 3, "the payload's state: \(response)")

                // The response object as recorded, which is what a Server-Sent Events listener of /mqtt/roll is sent.
                let recorded = try #require(try await stage.waitForEvents("ResponseReceived", count: 1).first)
                let body = try #require(recorded["body"] as? [String: Any])
                let logged = try #require(body["response"] as? [String: Any], "\(body)")
                #expect(NSDictionary(dictionary: logged).isEqual(to: response), "\(logged) vs \(response)")

                // A document an operator publishes on a topic goes the same way, as published.
                let ada = MusterClient(serverURL: stage.server.base)
                let session = await ada.authWithInternal(username: "ada", password: "secret-ada")
                try #require(session.authValid, "\(session.errorStr)")
                _ = try await ada.publish(.object(["door": .string("open")]), to: "/mqtt/door")
                let both = try await rules.messages(count: 2, timeout: .seconds(20))
                try #require(both.count == 2, "\(both)")
                #expect(both[1].topic == "muster/mqtt/door")
                #expect(String(decoding: both[1].payload, as: UTF8.self) == #"{"door":"open"}"#)
            } catch {
                await rules.close()
                await stage.stop()
                throw error
            }
            await rules.close()
            await stage.stop()
        }

        /// The forwarder goes on where it stopped: a document recorded while the broker was away, and not yet
        /// published when Muster was killed, is published by the restarted Muster once the broker is back. One the
        /// status showed as published through (`topicsPublishedThrough`) before the kill is not published again.
        @Test func aDocumentNotYetPublishedWhenMusterDiedIsPublishedAfterTheRestart() async throws {
            let stage = try await Stage.start()
            let rules = try await MQTTTesting.MQTTDevice(stage.broker.configuration(user: "muster", clientID: "rules"))
            do {
                try await rules.subscribe("muster/mqtt/#")
                let ada = MusterClient(serverURL: stage.server.base)
                let session = await ada.authWithInternal(username: "ada", password: "secret-ada")
                try #require(session.authValid, "\(session.errorStr)")
                let position = try #require(UInt64(try await ada.publish(["door": "open"], to: "/mqtt/door")))
                let first = try await rules.messages(count: 1, timeout: .seconds(20))
                try #require(first.map(\.topic) == ["muster/mqtt/door"], "\(first)")
                // The broker took it; Muster saves that it did one commit later.
                let deadline = ContinuousClock.now + .seconds(20)
                var through = try await ada.mqttStatus().topicsPublishedThrough
                while (through ?? 0) < position && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                    through = try await ada.mqttStatus().topicsPublishedThrough
                }
                try #require((through ?? 0) >= position, "published through \(String(describing: through))")

                await stage.broker.stop()
                _ = try await ada.publish(.object(["door": .string("closed")]), to: "/mqtt/door")
                try await stage.server.restart(after: SIGKILL)
                try await stage.broker.restart()

                // From where it stopped: "open" was saved as published, so only "closed" comes.
                let received = try await rules.messages(count: 2, timeout: .seconds(30)).map {
                    String(decoding: $0.payload, as: UTF8.self)
                }
                #expect(received == [#"{"door":"open"}"#, #"{"door":"closed"}"#], "\(received)")
            } catch {
                await rules.close()
                await stage.stop()
                throw error
            }
            await rules.close()
            await stage.stop()
        }
    }
}
