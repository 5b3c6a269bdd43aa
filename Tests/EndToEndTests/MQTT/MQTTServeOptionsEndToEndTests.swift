import Foundation
import MQTT
import MQTTTesting
import MusterClient
import MusterWire
import Testing

extension MQTTEndToEndTests {
    /// `muster serve --mqtt` options seen from outside: `--mqtt-receipt-timeout` and `--mqtt-topic-prefix`.
    @Suite(.serialized) struct MQTTServeOptionsEndToEndTests {
        @Test func aPhoneThatSendsNoReceiptLeavesTheSettingsCommandWithANullReceiptAfterTheReceiptTimeout()
            async throws
        {
            try await MQTTStage.with(serveArguments: ["--mqtt-receipt-timeout", "1"]) { stage in
                let environment = try await MQTTDeviceContentEndToEndTests.loggedInAsAda(stage)
                // Killed after 20 s, well before the default 30 s wait would end it.
                async let command = MusterProcess.run(
                    ["mqtt", "settings", "--user", "joe", MQTTStage.deviceId, "IntervalCycle=1000"],
                    environment: environment, timeout: 20)
                let message = try await stage.nextOnPhone()
                #expect((message["Settings"] as? [String: Any])?["IntervalCycle"] as? Int == 1000, "\(message)")

                // The phone never answers.
                let printed = try await command
                try #require(printed.status == 0, "\(printed)")
                let answer = try #require(
                    try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any],
                    "\(printed.stdout)")
                #expect(answer["deviceId"] as? String == MQTTStage.deviceId, "\(printed.stdout)")
                #expect(answer["receipt"] is NSNull, "no receipt came: \(printed.stdout)")
                #expect(try await stage.events("DeviceDataReported").isEmpty)
            }
        }

        @Test func aCustomTopicPrefixIsWhereDocumentsArePublished() async throws {
            try await MQTTStage.with(serveArguments: ["--mqtt-topic-prefix", "site1/muster"]) { stage in
                let rules = try await MQTTTesting.MQTTDevice(
                    stage.broker.configuration(user: "muster", clientID: "rules"))
                do {
                    try await rules.subscribe("#")
                    try await Self.publishDocument(["door": .string("open")], to: "/mqtt/door", on: stage)
                    let message = try #require(try await rules.messages(count: 1, timeout: .seconds(20)).first)
                    #expect(message.topic == "site1/muster/mqtt/door")
                    #expect(String(decoding: message.payload, as: UTF8.self) == #"{"door":"open"}"#)
                } catch {
                    await rules.close()
                    throw error
                }
                await rules.close()
            }
        }

        /// With `--mqtt-topic-prefix ""` neither a document nor a response goes to the broker: after both are
        /// recorded, the phone's second DialogMessage — published after them — is the last thing the broker carried.
        @Test func anEmptyTopicPrefixPublishesNoResponseTopics() async throws {
            try await MQTTStage.with(serveArguments: ["--mqtt-topic-prefix", ""]) { stage in
                let everything = try await MQTTTesting.MQTTDevice(
                    stage.broker.configuration(user: "muster", clientID: "everything"))
                do {
                    try await everything.subscribe("#")
                    try await Self.publishDocument(["door": .string("open")], to: "/mqtt/door", on: stage)
                    let sent = try await stage.server.run(
                        [
                            "send", "--to", "joe", "--title", "Roll call", "--body", "Here?", "--json",
                            MQTTBridgeEndToEndTests.form,
                        ] + stage.server.data)
                    try #require(sent.status == 0, "\(sent)")
                    let dialog = try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
                    var reply = try #require(
                        (dialog["Options"] as? [[String: Any]])?.first?["ReplyObject"] as? [String: Any])
                    reply["name"] = "Joe"
                    reply["agree"] = "True"
                    reply["iPhoneID"] = MQTTStage.deviceId
                    let text = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
                    try await stage.phone.publish(text, to: MQTTStage.outTopic)
                    let responses = try await stage.waitForEvents("ResponseReceived", count: 1)
                    try #require(responses.count == 1, "the reply was recorded as a response")

                    let second = try await stage.server.run(
                        [
                            "send", "--to", "joe", "--title", "Thanks", "--body", "Noted", "--json",
                            #"{"responseTopic":"/mqtt/thanks","fields":[]}"#,
                        ]
                            + stage.server.data)
                    try #require(second.status == 0, "\(second)")
                    let thanks = try await stage.phone.messages(count: 2, timeout: .seconds(20))
                    #expect(thanks.count == 2)
                    let carried = try await everything.messages(count: 3, timeout: .seconds(20))
                    #expect(
                        carried.map(\.topic) == [MQTTStage.inTopic, MQTTStage.outTopic, MQTTStage.inTopic],
                        "only the two DialogMessages and the reply: \(carried.map(\.topic))")
                    let counts = try await stage.counts()
                    #expect(counts["published"] == 2, "the two DialogMessages, nothing forwarded: \(counts)")
                    #expect(counts["responses"] == 1, "\(counts)")
                } catch {
                    await everything.close()
                    throw error
                }
                await everything.close()
            }
        }

        /// Publishes `document` on `topic` of the default namespace as ada.
        static func publishDocument(_ document: [String: JSONValue], to topic: String, on stage: MQTTStage)
            async throws
        {
            let ada = MusterClient(serverURL: stage.server.base)
            let session = await ada.authWithInternal(username: "ada", password: "secret-ada")
            try #require(session.authValid, "\(session.errorStr)")
            _ = try await ada.publish(.object(document), to: topic)
        }
    }
}
