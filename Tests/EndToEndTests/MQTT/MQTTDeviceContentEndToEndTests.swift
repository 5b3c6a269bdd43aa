import EventLogTesting
import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// What Joe's phone publishes besides sensor values (seed 001): a settings receipt, scanned QR content, a camera
    /// picture, replies; and what the bridge refuses without stopping.
    @Suite(.serialized) struct MQTTDeviceContentEndToEndTests {
        static let form = """
            {"responseTopic": "/mqtt/roll", "fields": [
              {"id": "name", "type": "inputString", "label": "Your name"},
              {"type": "footerButton", "buttonLabel": "Send", "value": 1}
            ]}
            """

        /// The environment of CLI commands acting on the server as ada, after `muster login`.
        static func loggedInAsAda(_ stage: MQTTStage) async throws -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["MUSTER_DATA"] = nil
            environment["MUSTER_SESSION"] = stage.work.url.appendingPathComponent("session.json").path
            let login = try await stage.server.run(
                ["login", "--server", stage.server.base.absoluteString, "ada", "--password-stdin"],
                stdin: "secret-ada\n",
                environment: environment)
            try #require(login.status == 0, "\(login)")
            return environment
        }

        /// The seed's receipt for `settings`, as the app publishes it after a settings message.
        static func receipt(_ settings: [String: Any]) throws -> String {
            var all: [String: Any] = [
                "SubscribeTopic": [MQTTStage.inTopic], "PublishTopic": MQTTStage.outTopic, "OnIncoming": false,
                "OnInterval": false, "IntervalOnChange": false, "OnThreshold": false, "IntervalCycle": 500,
                "ThresholdValue": 100,
            ]
            all.merge(settings) { $1 }
            let object: [String: Any] = ["iPhoneID": MQTTStage.deviceId, "Settings": all]
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        }

        @Test func aSettingsMessageReachesThePhoneAndItsReceiptAnswersTheCommandEachTime() async throws {
            try await MQTTStage.with { stage in
                let environment = try await Self.loggedInAsAda(stage)
                // The same settings twice: the app's two receipts are byte for byte the same, and each answers its command.
                for round in 1...2 {
                    async let command = stage.server.run(
                        [
                            "mqtt", "settings", "--user", "joe", MQTTStage.deviceId, "IntervalCycle=1000",
                            "OnInterval=true",
                        ],
                        environment: environment)
                    let arrived = try await stage.phone.messages(count: round, timeout: .seconds(20))
                    let message = try #require(
                        try JSONSerialization.jsonObject(with: Data(arrived[round - 1].payload)) as? [String: Any])
                    let settings = try #require(message["Settings"] as? [String: Any], "\(message)")
                    #expect(settings["IntervalCycle"] as? Int == 1000)
                    #expect(settings["OnInterval"] as? Bool == true)
                    #expect(message.count == 1, "only Settings: \(message)")

                    try await stage.phone.publish(
                        try Self.receipt(["IntervalCycle": 1000, "OnInterval": true]), to: MQTTStage.outTopic)
                    let printed = try await command
                    try #require(printed.status == 0, "\(printed)")
                    let answer = try #require(
                        try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8), options: .fragmentsAllowed)
                            as? [String: Any], "\(printed.stdout)")
                    let receipt = try #require(
                        answer["receipt"] as? [String: Any], "round \(round): the receipt, not null: \(printed.stdout)")
                    #expect(answer["deviceId"] as? String == MQTTStage.deviceId)
                    #expect(receipt["IntervalCycle"] as? Int == 1000, "\(printed.stdout)")
                    #expect(receipt["PublishTopic"] as? String == MQTTStage.outTopic, "\(printed.stdout)")
                }
            }
        }

        @Test func aReceiptNamingAnotherPublishTopicMovesTheDeviceThere() async throws {
            let moved = "phones/joe/elsewhere"
            try await MQTTStage.with(phoneWrites: [moved]) { stage in
                let receipt: [String: Any] = [
                    "iPhoneID": MQTTStage.deviceId,
                    "Settings": ["SubscribeTopic": [MQTTStage.inTopic], "PublishTopic": moved, "IntervalCycle": 500],
                ]
                try await stage.phone.publish(
                    String(decoding: try JSONSerialization.data(withJSONObject: receipt), as: UTF8.self),
                    to: MQTTStage.outTopic)
                // The registration follows the receipt, and the bridge listens on the new topic, not the old one.
                try await stage.waitForSubscription(moved)
                try await stage.waitForSubscription(MQTTStage.outTopic, gone: true)
                let listed = try await stage.server.run(
                    ["devices", "list", "--user", "joe", "--json"] + stage.server.data)
                #expect(listed.stdout.contains(#""publishTopic":"\#(moved)""#), "\(listed.stdout)")
                try await stage.phone.publish(#"{"iPhoneID":"\#(MQTTStage.deviceId)","Battery":40}"#, to: moved)
                let reported = try await stage.waitForEvents("DeviceDataReported", count: 2)
                #expect(reported.count == 2)
                #expect((reported.last?["body"] as? [String: Any])?["topic"] as? String == moved)
            }
        }

        @Test func qrJSONIsKeptAndAPictureBecomesADocumentOfTheUser() async throws {
            try await MQTTStage.with { stage in
                let scanned = #"{"room":"B12","seats":[1,2]}"#
                let qr: [String: Any] = ["iPhoneID": MQTTStage.deviceId, "QRContent": scanned, "Proximity": false]
                try await stage.phone.publish(
                    String(decoding: try JSONSerialization.data(withJSONObject: qr), as: UTF8.self),
                    to: MQTTStage.outTopic)
                let picture = MediaSamples.file("jpeg", size: 300)
                let base64 = Data(picture).base64EncodedString()
                try await stage.phone.publish(
                    #"{"iPhoneID":"\#(MQTTStage.deviceId)","CameraContent":"\#(base64)"}"#, to: MQTTStage.outTopic)

                let reported = try await stage.waitForEvents("DeviceDataReported", count: 2)
                try #require(reported.count == 2, "\(reported)")
                let qrBody = try MQTTStage.recordedMessage(reported[0])
                // Seed 001: a QR code holding JSON is "represented as a object", not a string.
                let keptObject = try #require(
                    qrBody["QRContent"] as? [String: Any], "QRContent kept as JSON: \(qrBody)")
                #expect(keptObject["room"] as? String == "B12")
                #expect(keptObject["seats"] as? [Int] == [1, 2])

                let uploaded = try await stage.waitForEvents("DocumentUploaded", count: 1)
                try #require(uploaded.count == 1, "\(uploaded)")
                let document = try #require(uploaded[0]["body"] as? [String: Any])
                let name = try #require(document["name"] as? String)
                #expect(document["contentType"] as? String == "image/jpeg")
                #expect(document["size"] as? Int == picture.count)
                #expect(document["uploader"] as? String == "joe", "\(document)")
                let pictureEvent = try #require(reported[1]["body"] as? [String: Any])
                #expect(pictureEvent["document"] as? String == name)
                let pictureBody = try MQTTStage.recordedMessage(reported[1])
                #expect((pictureBody["CameraContent"] as? [String: Any])?["document"] as? String == name)
                let eventText = String(
                    decoding: try JSONSerialization.data(withJSONObject: reported[1]), as: UTF8.self)
                #expect(!eventText.contains(String(base64.prefix(40))), "the base64 is not in the event")
            }
        }

        @Test func oversizedAndNonJSONMessagesAreRefusedAndARemovedDevicesTopicIsNoLongerListenedTo() async throws {
            let retired = "phones/joe/old"
            try await MQTTStage.with(phoneWrites: [retired]) { stage in
                // A topic no device publishes on any more: the bridge stops listening there.
                for arguments in [
                    [
                        "devices", "register", "--user", "joe", "--device-id", "OLD1", "--device-name", "Old phone",
                        "--platform", "mqtt", "--token", "phones/joe/old-in", "--publish-topic", retired,
                    ],
                    ["devices", "remove", "--user", "joe", "--device-id", "OLD1"],
                ] {
                    let done = try await stage.server.run(arguments + stage.server.data)
                    try #require(done.status == 0, "\(done)")
                }
                try await stage.waitForSubscription(retired, gone: true)

                let huge =
                    #"{"iPhoneID":"\#(MQTTStage.deviceId)","Note":""# + String(repeating: "x", count: 10_500_000)
                    + #""}"#
                try await stage.phone.publish(huge, to: MQTTStage.outTopic)
                try await stage.phone.publish("Battery 50, not JSON", to: MQTTStage.outTopic)
                try await stage.phone.publish(#"{"iPhoneID":"OLD1","Battery":20}"#, to: retired)
                try await stage.phone.publish(
                    #"{"iPhoneID":"\#(MQTTStage.deviceId)","Battery":77}"#, to: MQTTStage.outTopic)

                let reported = try await stage.waitForEvents("DeviceDataReported", count: 1)
                try #require(reported.count == 1, "only the good message: \(reported.count)")
                #expect(try MQTTStage.recordedMessage(reported[0])["Battery"] as? Int == 77)
                // The message on the retired topic was published before the good one: had the bridge still listened
                // there, it would have been refused (counted) before the good one was recorded.
                let counts = try await stage.waitForCounts { $0["refused"] ?? 0 >= 2 && $0["recorded"] ?? 0 >= 1 }
                #expect(counts["refused"] == 2, "\(counts)")
                #expect(counts["recorded"] == 1, "\(counts)")
                let status = try await stage.server.send(
                    "GET", "api/v1/mqtt/status", token: try await stage.server.login("ada", password: "secret-ada"))
                #expect(status.object["subscriptions"] as? [String] == [MQTTStage.outTopic], "\(status.text)")
            }
        }

        @Test func aReplyToAnAlreadyAnsweredMessageIsRecordedButNotAnsweredAgain() async throws {
            try await MQTTStage.with { stage in
                let sent = try await stage.server.run(
                    ["send", "--to", "joe", "--title", "Roll call", "--body", "Name?", "--json", Self.form]
                        + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let dialog = try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
                let option = try #require((dialog["Options"] as? [[String: Any]])?.first)
                var reply = try #require(option["ReplyObject"] as? [String: Any])
                reply["iPhoneID"] = MQTTStage.deviceId
                for name in ["Joe", "Jim"] {
                    reply["name"] = name
                    try await stage.phone.publish(
                        String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self),
                        to: MQTTStage.outTopic)
                    _ = try await stage.waitForEvents("ResponseReceived", count: 1)
                }
                try await stage.phone.publish(
                    #"{"iPhoneID":"\#(MQTTStage.deviceId)","Battery":61}"#, to: MQTTStage.outTopic)

                let reported = try await stage.waitForEvents("DeviceDataReported", count: 3)
                #expect(reported.count == 3, "both replies and the sensor message recorded")
                let responses = try await stage.events("ResponseReceived")
                try #require(responses.count == 1, "answered once: \(responses)")
                let flat = String(decoding: try JSONSerialization.data(withJSONObject: responses[0]), as: UTF8.self)
                #expect(flat.contains("Joe") && !flat.contains("Jim"), "the first reply answered: \(flat)")
                let counts = try await stage.waitForCounts { $0["recorded"] ?? 0 >= 3 }
                #expect(counts["refusedParts"] == 1, "\(counts)")
                #expect(counts["responses"] == 1, "\(counts)")
                #expect(counts["recorded"] == 3, "\(counts)")
            }
        }
    }
}
