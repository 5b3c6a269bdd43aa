import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// `muster mqtt settings` and the receipts that answer it (seed 001: "After the new settings have been set a
    /// receipt will be sent back"): a new PublishTopic, commands sent side by side, a broker that is away.
    @Suite(.serialized) struct MQTTSettingsReceiptsEndToEndTests {
        typealias Content = MQTTDeviceContentEndToEndTests

        /// The command's printed answer.
        static func answer(_ printed: MusterProcess.Outcome) throws -> [String: Any] {
            try #require(printed.status == 0, "\(printed)")
            return try #require(
                try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any], "\(printed.stdout)"
            )
        }

        /// The app applies a new PublishTopic first and sends its receipt there: the bridge listens there while it
        /// waits, the receipt answers the command and moves the device, and what the phone publishes next is
        /// recorded. A new topic whose receipt never came is not listened to afterwards.
        @Test func aReceiptOnTheNewPublishTopicAnswersTheCommandAndMovesTheDevice() async throws {
            let moved = "phones/joe/moved"
            try await MQTTStage.with(phoneWrites: [moved], serveArguments: ["--mqtt-receipt-timeout", "5"]) { stage in
                let environment = try await Content.loggedInAsAda(stage)
                let command = ["mqtt", "settings", "--user", "joe", MQTTStage.deviceId, "PublishTopic=\(moved)"]

                // The phone does not answer: the command ends with no receipt, and the topic is given up.
                async let unanswered = stage.server.run(command, environment: environment)
                let first = try await stage.nextOnPhone()
                #expect((first["Settings"] as? [String: Any])?["PublishTopic"] as? String == moved, "\(first)")
                #expect(try Self.answer(try await unanswered)["receipt"] is NSNull)
                try await stage.waitForSubscription(moved, gone: true)

                async let answered = stage.server.run(command, environment: environment)
                let arrived = try await stage.phone.messages(count: 2, timeout: .seconds(20))
                try #require(arrived.count == 2, "\(arrived)")
                try await stage.phone.publish(try Content.receipt(["PublishTopic": moved]), to: moved)
                let answer = try Self.answer(try await answered)
                let receipt = try #require(answer["receipt"] as? [String: Any], "not null: \(answer)")
                #expect(receipt["PublishTopic"] as? String == moved, "\(receipt)")

                try await stage.waitForSubscription(MQTTStage.outTopic, gone: true)
                try await stage.waitForSubscription(moved)
                let listed = try await stage.server.run(["devices", "list", "--json"] + stage.server.data)
                #expect(listed.stdout.contains(#""publishTopic":"\#(moved)""#), "\(listed.stdout)")
                try await stage.phone.publish(
                    #"{"iPhoneID":"\#(MQTTStage.deviceId)","QRContent":"cedalo.com"}"#, to: moved)
                let reported = try await stage.waitForEvents("DeviceDataReported", count: 2)
                try #require(reported.count == 2, "the receipt and the QR code: \(reported)")
                #expect(try MQTTStage.recordedMessage(reported[1])["QRContent"] as? String == "cedalo.com")
                #expect((reported[1]["body"] as? [String: Any])?["topic"] as? String == moved)
            }
        }

        /// Two commands to one device at once: each prints the receipt of its own settings, not the first one.
        @Test func commandsSentSideBySideEachGetTheirOwnReceipt() async throws {
            try await MQTTStage.with(serveArguments: ["--mqtt-receipt-timeout", "20"]) { stage in
                let environment = try await Content.loggedInAsAda(stage)
                let command = ["mqtt", "settings", "--user", "joe", MQTTStage.deviceId]
                async let incoming = stage.server.run(command + ["OnIncoming=true"], environment: environment)
                async let cycle = stage.server.run(command + ["IntervalCycle=777"], environment: environment)
                let arrived = try await stage.phone.messages(count: 2, timeout: .seconds(20))
                try #require(arrived.count == 2, "\(arrived)")
                // The app applies them in turn; its first receipt shows only OnIncoming changed.
                try await stage.phone.publish(
                    try Content.receipt(["OnIncoming": true, "IntervalCycle": 500]), to: MQTTStage.outTopic)
                try await stage.phone.publish(
                    try Content.receipt(["OnIncoming": true, "IntervalCycle": 777]), to: MQTTStage.outTopic)
                let first = try #require(try Self.answer(try await incoming)["receipt"] as? [String: Any])
                let second = try #require(try Self.answer(try await cycle)["receipt"] as? [String: Any])
                #expect(first["IntervalCycle"] as? Int == 500, "\(first)")
                #expect(second["IntervalCycle"] as? Int == 777, "\(second)")
            }
        }

        /// With the broker away the command fails at once, saying so, instead of waiting for a receipt that cannot
        /// come (here 120 s; the run is ended after 30).
        @Test func withTheBrokerAwayTheCommandFailsAtOnceSayingTheBridgeIsNotConnected() async throws {
            try await MQTTStage.with(serveArguments: ["--mqtt-receipt-timeout", "120"]) { stage in
                let environment = try await Content.loggedInAsAda(stage)
                await stage.broker.stop()
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let deadline = ContinuousClock.now + .seconds(30)
                while true {
                    let status = try await stage.server.send("GET", "api/v1/mqtt/status", token: ada)
                    if (status.object["state"] as? String)?.hasPrefix("connected") == false { break }
                    try #require(ContinuousClock.now < deadline, "the bridge saw the broker go: \(status.text)")
                    try await Task.sleep(for: .milliseconds(50))
                }
                let printed = try await MusterProcess.run(
                    ["mqtt", "settings", "--user", "joe", MQTTStage.deviceId, "OnIncoming=true"],
                    environment: environment, timeout: 30)
                #expect(printed.status != 0, "\(printed)")
                #expect(
                    printed.stderr.contains("the MQTT bridge is not connected to the broker at"), "\(printed.stderr)")
                #expect(printed.stderr.contains("nothing was sent"), "\(printed.stderr)")
            }
        }
    }
}
