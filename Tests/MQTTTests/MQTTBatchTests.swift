import MQTT
import MQTTTesting
import Synchronization
import Testing

/// The handler gets batches of at most `batchLimit` messages, in the order the broker sent them, while the broker
/// may already send up to `receiveMaximum`.
@Suite(.serialized) struct MQTTBatchTests {
    @Test func theDefaultsLetTheNextBatchComeWhileOneIsHandled() {
        let configuration = MQTTConfiguration(host: "broker", clientID: "muster")
        #expect(configuration.receiveMaximum == 2000)
        #expect(configuration.batchLimit == 1000)
        #expect(MQTTConfiguration(host: "broker", clientID: "muster", receiveMaximum: 1).batchLimit == 1)
    }

    @Test func aBatchLimitAboveTheReceiveMaximumIsRefusedByName() {
        let configuration = MQTTConfiguration(host: "broker", clientID: "muster", receiveMaximum: 10, batchLimit: 11)
        #expect {
            try MQTTClient(configuration) { _ in }
        } throws: { error in
            "\(error)".contains("batch limit 11") && "\(error)".contains("expected 1…10")
        }
    }

    @Test func batchesHoldAtMostTheBatchLimitInTheBrokersOrder() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            var configuration = broker.configuration(user: "muster", clientID: "muster")
            configuration.receiveMaximum = 6
            configuration.batchLimit = 3
            let gate = Gate()
            let received = MQTTInbox()
            let sizes = Mutex<[Int]>([])
            let muster = try MQTTClient(configuration) { batch in
                sizes.withLock { $0.append(batch.count) }
                received.record(batch)
                // The first batch waits until every message was published, so the next ones queue up.
                try await gate.pass()
            }
            try await muster.connect()
            try await muster.subscribe(["devices/#"])
            let phone = try await MQTTDevice(broker.configuration(user: "phone", clientID: "phone-1"))
            for n in 1...12 { try await phone.publish("reading \(n)", to: "devices/phone-1") }
            gate.open()
            var waitingFor = 12
            while Set(received.texts).count < 12 {  // a message that came twice counts once
                _ = try await received.wait(for: waitingFor)
                waitingFor = received.texts.count + 12 - Set(received.texts).count
            }

            // At least once, in the broker's order: only a lost connection (a loaded machine missing a keepalive while
            // the first batch waits) brings unacknowledged messages again, after those already handed over.
            var firstArrivals: [String] = []
            for text in received.texts where !firstArrivals.contains(text) { firstArrivals.append(text) }
            #expect(firstArrivals == (1...12).map { "reading \($0)" })
            if muster.counters.disconnects + phone.client.counters.disconnects == 0 {
                #expect(received.texts.count == 12, "no connection was lost, so nothing came twice: \(received.texts)")
            }
            #expect(sizes.withLock { $0 }.allSatisfy { $0 <= 3 })
            #expect(sizes.withLock { $0 }.contains(3), "the queued messages came in full batches")
            await muster.shutdown()
            await phone.close()
        }
    }
}
