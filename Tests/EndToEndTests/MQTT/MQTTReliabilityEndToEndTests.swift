import EventLogTesting
import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// The MQTT bridge when the broker or Muster goes away while Joe's phone keeps publishing with QoS 1 (issue 14):
    /// every message is recorded once, and a form sent meanwhile still reaches the phone.
    @Suite(.serialized) struct MQTTReliabilityEndToEndTests {
        /// How many sensor messages the phone publishes in each test.
        static let streamLength = 200

        /// The phone's sensor message number `n`: its `Timestamp` tells the messages apart.
        static func sensorMessage(_ n: Int) -> String {
            #"{"iPhoneID":"\#(MQTTStage.deviceId)","Timestamp":\#(n),"Battery":\#(50 + n % 7)}"#
        }

        /// Publishes messages `numbers` in order, each until the broker acknowledged it (again after a failure, as the
        /// app's client does), so the bridge may see some twice but must record each once.
        static func publishStream(_ numbers: ClosedRange<Int>, on stage: MQTTStage) async throws {
            for n in numbers { try await stage.publishUntilAcknowledged(sensorMessage(n)) }
        }

        /// Waits until the whole stream is recorded and checks each `Timestamp` is recorded exactly once.
        static func expectEachRecordedOnce(_ stage: MQTTStage) async throws {
            let events = try await stage.waitForEvents("DeviceDataReported", count: streamLength, seconds: 60)
            let timestamps = try events.map { try #require(MQTTStage.recordedMessage($0)["Timestamp"] as? Int) }
            var seen: [Int: Int] = [:]
            for timestamp in timestamps { seen[timestamp, default: 0] += 1 }
            #expect(
                Set(timestamps) == Set(1...streamLength), "missing: \(Set(1...streamLength).subtracting(timestamps))")
            #expect(seen.filter { $0.value > 1 }.isEmpty, "recorded more than once: \(seen.filter { $0.value > 1 })")
            #expect(events.count == streamLength)
        }

        @Test func aBrokerRestartedMidStreamLosesNothingAndDoublesNothing() async throws {
            try await MQTTStage.with { stage in
                try await Self.publishStream(1...(Self.streamLength / 2), on: stage)
                // The broker stops (saving its persistence) with half the stream sent; the phone publishes the second
                // half from then on, again after each failure, until the broker is back and takes it.
                await stage.broker.stop()
                let rest = Task {
                    try await Self.publishStream((Self.streamLength / 2 + 1)...Self.streamLength, on: stage)
                }
                // A form sent while the broker is down: its delivery is retried until the broker takes it.
                let sent = try await stage.server.run(
                    [
                        "send", "--to", "joe", "--title", "While away", "--body", "Still there?", "--json",
                        #"{"responseTopic": "/mqtt/away", "fields": [{"type": "footerButton", "buttonLabel": "Yes", "value": 1}]}"#,
                    ] + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let messageId = try #require((try sent.json()["messageIds"] as? [String])?.first)
                try await stage.broker.restart()
                try await rest.value

                try await Self.expectEachRecordedOnce(stage)
                let received = try await stage.phone.messages(count: 1, timeout: .seconds(30))
                let dialogs = received.map { String(decoding: $0.payload, as: UTF8.self) }.filter {
                    $0.contains("DialogMessage") && $0.contains("While away")
                }
                #expect(!dialogs.isEmpty, "the form reached the phone after the broker came back")
                let deliveries = try await stage.server.run(
                    ["deliveries", "--message", messageId, "--status", "delivered"] + stage.server.data)
                #expect(deliveries.status == 0, "\(deliveries)")
                #expect(deliveries.stdout.lowercased().contains(messageId.lowercased()), "\(deliveries)")
                #expect(deliveries.stdout.contains("delivered"), "\(deliveries)")
            }
        }

        @Test func musterKilledMidStreamRecordsEveryMessageOnceAfterItsRestart() async throws {
            try await MQTTStage.with { stage in
                try await Self.publishStream(1...(Self.streamLength / 2), on: stage)
                // Muster is killed once it recorded part of the first half, while the phone publishes the second half:
                // the broker keeps the bridge's persistent session (client id `muster`) and what came meanwhile.
                _ = try await stage.waitForEvents("DeviceDataReported", count: 1)
                let rest = Task {
                    try await Self.publishStream((Self.streamLength / 2 + 1)...Self.streamLength, on: stage)
                }
                try await stage.server.restart(after: SIGKILL)
                try await rest.value
                try await Self.expectEachRecordedOnce(stage)
                // The restarted server's counts: it recorded the messages the killed one had not, not all of them.
                let counts = try await stage.counts()
                #expect((1..<Self.streamLength).contains(counts["recorded"] ?? 0), "killed mid-stream: \(counts)")
            }
        }
    }
}
