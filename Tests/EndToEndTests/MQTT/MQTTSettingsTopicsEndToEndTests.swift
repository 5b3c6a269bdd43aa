import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// A device's topics are its own: a settings message cannot give a phone another device's topic, and a receipt
    /// from another phone on a device's publish topic does not move that device.
    @Suite(.serialized) struct MQTTSettingsTopicsEndToEndTests {
        static let annIn = "phones/ann/in"
        static let annOut = "phones/ann/out"

        /// Registers Ann and her phone next to Joe's.
        static func addAnn(_ stage: MQTTStage) async throws {
            for arguments in [
                ["users", "add", "ann", "--password-stdin"],
                [
                    "devices", "register", "--user", "ann", "--device-id", "ANNPHONE", "--device-name", "Ann's iPhone",
                    "--platform", "mqtt", "--token", annIn, "--publish-topic", annOut,
                ],
            ] {
                let done = try await stage.server.run(arguments + stage.server.data, stdin: "secret-ann\n")
                try #require(done.status == 0, "\(done)")
            }
            try await stage.waitForSubscription(annOut)
        }

        /// Sends Joe a form titled "For Joe"; the DialogMessage his phone gets.
        static func sendJoeAForm(_ stage: MQTTStage) async throws -> [String: Any] {
            let sent = try await stage.server.run(
                [
                    "send", "--to", "joe", "--title", "For Joe", "--body", "only", "--json",
                    MQTTDeviceContentEndToEndTests.form,
                ] + stage.server.data)
            try #require(sent.status == 0, "\(sent)")
            return try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
        }

        @Test func aSettingsMessageCannotGiveAPhoneAnotherDevicesTopicAndNothingIsSent() async throws {
            try await MQTTStage.with(serveArguments: ["--mqtt-receipt-timeout", "1"]) { stage in
                try await Self.addAnn(stage)
                // Ann's phone, played by a client that may read her topic.
                let annPhone = try await MQTTTesting.MQTTDevice(
                    stage.broker.configuration(user: "muster", clientID: "ann-iphone"))
                do {
                    try await annPhone.subscribe(Self.annIn)
                    let environment = try await MQTTDeviceContentEndToEndTests.loggedInAsAda(stage)
                    let command = ["mqtt", "settings", "--user", "ann", "ANNPHONE"]
                    let joesTopic = try await stage.server.run(
                        command + ["PublishTopic=\(MQTTStage.outTopic)"], environment: environment)
                    #expect(joesTopic.status != 0, "\(joesTopic)")
                    #expect(
                        joesTopic.stderr.contains(
                            "PublishTopic=\(MQTTStage.outTopic) is already the publish topic of device "
                                + "\"\(MQTTStage.deviceId)\" of user joe"), "\(joesTopic)")

                    let ada = try await stage.server.login("ada", password: "secret-ada")
                    for filter in [MQTTStage.inTopic, "phones/joe/#", "phones/+/out"] {
                        let answer = try await stage.server.send(
                            "POST", "api/v1/mqtt/devices/ANNPHONE/settings", token: ada,
                            json: #"{"user":"ann","settings":["SubscribeTopic=\#(Self.annIn),\#(filter)"]}"#)
                        #expect(answer.status == 409, "\(filter): \(answer.text)")
                        #expect(answer.text.contains("SubscribeTopic=\(filter) would receive"), "\(answer.text)")
                        #expect(answer.text.contains(MQTTStage.deviceId), "\(answer.text)")
                    }

                    // Nothing was published to Ann's phone: the first message it gets is the next, accepted one.
                    let accepted = try await stage.server.run(command + ["IntervalCycle=700"], environment: environment)
                    try #require(accepted.status == 0, "\(accepted)")
                    let first = try #require(try await annPhone.messages(count: 1, timeout: .seconds(20)).first)
                    let message = try #require(
                        try JSONSerialization.jsonObject(with: Data(first.payload)) as? [String: Any])
                    #expect(
                        NSDictionary(dictionary: message).isEqual(to: ["Settings": ["IntervalCycle": 700]]),
                        "\(message)")
                    let listed = try await stage.server.run(["devices", "list", "--json"] + stage.server.data)
                    #expect(listed.stdout.contains(#""publishTopic":"\#(Self.annOut)""#), "\(listed.stdout)")
                    #expect(listed.stdout.contains(#""token":"\#(Self.annIn)""#), "\(listed.stdout)")
                } catch {
                    await annPhone.close()
                    throw error
                }
                await annPhone.close()
            }
        }

        @Test func aReceiptFromAnotherPhoneOnADevicesTopicDoesNotMoveTheDevice() async throws {
            try await MQTTStage.with { stage in
                // Ann's phone set (wrongly) to publish on Joe's topic: its receipt names Ann's phone.
                let receipt: [String: Any] = [
                    "iPhoneID": "ANNPHONE",
                    "Settings": [
                        "SubscribeTopic": [Self.annIn], "PublishTopic": MQTTStage.outTopic, "IntervalCycle": 500,
                    ],
                ]
                try await stage.phone.publish(
                    String(decoding: try JSONSerialization.data(withJSONObject: receipt), as: UTF8.self),
                    to: MQTTStage.outTopic)
                let counts = try await stage.waitForCounts { $0["refusedParts"] ?? 0 >= 1 }
                #expect(counts["refusedParts"] == 1, "\(counts)")
                #expect(counts["recorded"] == 1, "recorded all the same: \(counts)")
                let listed = try await stage.server.run(["devices", "list", "--json"] + stage.server.data)
                #expect(listed.stdout.contains(#""token":"\#(MQTTStage.inTopic)""#), "\(listed.stdout)")
                #expect(!listed.stdout.contains(Self.annIn), "\(listed.stdout)")

                // Joe's forms still go to Joe's phone.
                let dialog = try await Self.sendJoeAForm(stage)
                #expect(dialog["Maintitle"] as? String == "For Joe")
            }
        }

        /// Ann's phone, registered as hers, set (wrongly) to publish on Joe's topic: what it sends there is recorded,
        /// and none of it is taken as Joe's — not its answer to Joe's form, not where it is.
        @Test func aReplyAndALocationFromAnotherRegisteredPhoneOnADevicesTopicAreNotTakenAsThatPersons() async throws {
            try await MQTTStage.with { stage in
                try await Self.addAnn(stage)
                let dialog = try await Self.sendJoeAForm(stage)
                var reply = try #require(
                    (dialog["Options"] as? [[String: Any]])?.first?["ReplyObject"] as? [String: Any])
                reply["name"] = "Ann, not Joe"
                reply["iPhoneID"] = "annphone"  // the app's id, in any case
                reply["GPS"] = ["Latitude": 47.9942, "Longitude": 7.8397, "Altitude": 269.8]
                try await stage.phone.publish(
                    String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self),
                    to: MQTTStage.outTopic)

                let refusals = try await stage.waitForEvents("ReplyRefused", count: 1)
                let refusal = try #require(refusals.first?["body"] as? [String: Any], "\(refusals)")
                let reason = try #require(refusal["reason"] as? String)
                #expect(reason.contains(#"iPhoneID annphone, device "ANNPHONE" of user ann"#), "\(reason)")
                #expect(refusal["user"] as? String == "joe", "\(refusal)")
                let counts = try await stage.waitForCounts { $0["refusedParts"] ?? 0 >= 1 }
                #expect(counts["recorded"] == 1, "recorded all the same: \(counts)")
                #expect(try await stage.events("ResponseReceived").isEmpty)
                #expect(try await stage.events("LocationReported").isEmpty)

                // Joe's own phone still answers.
                reply["name"] = "Joe"
                reply["iPhoneID"] = MQTTStage.deviceId
                reply["GPS"] = nil
                try await stage.phone.publish(
                    String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self),
                    to: MQTTStage.outTopic)
                let responses = try await stage.waitForEvents("ResponseReceived", count: 1)
                let flat = String(decoding: try JSONSerialization.data(withJSONObject: responses), as: UTF8.self)
                #expect(flat.contains(#""name":"Joe""#), "\(flat)")
            }
        }
    }
}
