import MQTT
import MQTTTesting
import Testing

@Suite(.serialized) struct MQTTSessionTests {
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func aPersistentSessionKeepsMessagesWhileAway(version: MQTTProtocolVersion) async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let configuration = broker.configuration(user: "muster", clientID: "muster", protocolVersion: version)
            let first = try MQTTClient(configuration) { _ in }
            try await first.connect()
            try await first.subscribe(["devices/#"])
            await first.shutdown()

            let phone = try await MQTTDevice(
                broker.configuration(user: "phone", clientID: "phone-1", protocolVersion: version))
            for index in 1...3 { try await phone.publish("while away \(index)", to: "devices/phone-1") }

            let received = MQTTInbox()
            let again = try MQTTClient(configuration) { batch in received.record(batch) }
            try await again.connect()
            #expect(again.state == .connected(sessionPresent: true))
            try await received.wait(for: 3)
            #expect(received.texts == ["while away 1", "while away 2", "while away 3"])
            await again.shutdown()
            await phone.close()
        }
    }

    @Test func aCleanSessionGetsNothingFromWhileAway() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let configuration = broker.configuration(user: "muster", clientID: "muster", session: .clean)
            let first = try MQTTClient(configuration) { _ in }
            try await first.connect()
            try await first.subscribe(["devices/#"])
            await first.shutdown()
            let phone = try await MQTTDevice(broker.configuration(user: "phone", clientID: "phone-1"))
            try await phone.publish("while away", to: "devices/phone-1")

            let received = MQTTInbox()
            let again = try MQTTClient(configuration) { batch in received.record(batch) }
            try await again.connect()
            #expect(again.state == .connected(sessionPresent: false))
            try await again.subscribe(["devices/#"])
            try await phone.publish("after", to: "devices/phone-1")
            try await received.wait(for: 1)
            #expect(received.texts == ["after"])
            await again.shutdown()
            await phone.close()
        }
    }

    @Test func theClientReconnectsByItselfAfterABrokerRestart() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let received = MQTTInbox()
            let muster = try MQTTClient(broker.configuration(user: "muster", clientID: "muster")) { batch in
                received.record(batch)
            }
            try await muster.connect()
            try await muster.subscribe(["devices/#"])

            try await broker.restart()
            // The loss is seen, then the reconnect, without anyone calling connect again.
            try await muster.waitForState(timeout: .seconds(10)) { state in
                state.isConnected && muster.counters.connects >= 2
            }
            #expect(muster.counters.disconnects == 1)
            #expect(muster.state == .connected(sessionPresent: true))
            #expect(muster.counters.connects >= 2)
            #expect(muster.counters.disconnects >= 1)

            let phone = try await MQTTDevice(broker.configuration(user: "phone", clientID: "phone-1"))
            try await phone.subscribe("muster/phone-1")
            try await muster.publish(topic: "muster/phone-1", payload: Array("after restart".utf8))
            #expect(try await phone.messages(count: 1).map(\.payload) == [Array("after restart".utf8)])
            try await phone.publish("reading", to: "devices/phone-1")
            try await received.wait(for: 1)
            #expect(received.texts == ["reading"])
            await muster.shutdown()
            await phone.close()
        }
    }

    @Test func aCleanSessionSubscribesAgainAfterABrokerRestart() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let received = MQTTInbox()
            let muster = try MQTTClient(broker.configuration(user: "muster", clientID: "muster", session: .clean)) {
                batch in received.record(batch)
            }
            try await muster.connect()
            try await muster.subscribe(["devices/#"])
            try await broker.restart()
            try await muster.waitForState(timeout: .seconds(10)) { _ in muster.counters.connects >= 2 }
            #expect(muster.state == .connected(sessionPresent: false))

            // The broker forgot the subscription; the client renewed it. Its SUBACK has no waiter, so publish until
            // one arrives.
            let phone = try await MQTTDevice(broker.configuration(user: "phone", clientID: "phone-1"))
            var sent = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while received.messages.isEmpty, ContinuousClock.now < deadline {
                sent += 1
                try await phone.publish("reading \(sent)", to: "devices/phone-1")
            }
            #expect(!received.messages.isEmpty)
            await muster.shutdown()
            await phone.close()
        }
    }
}
