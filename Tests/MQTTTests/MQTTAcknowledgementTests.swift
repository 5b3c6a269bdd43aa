import MQTT
import MQTTTesting
import Testing

/// A message is acknowledged to the broker only after the handler returned: until then the broker keeps it for the
/// session and delivers it again.
@Suite(.serialized) struct MQTTAcknowledgementTests {
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func whileTheHandlerRunsTheBrokerHasNoPUBACK(version: MQTTProtocolVersion) async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            var configuration = broker.configuration(user: "muster", clientID: "muster", protocolVersion: version)
            // No reconnect of the first client while the second holds the session.
            configuration.reconnectDelay = .seconds(30)
            configuration.maximumReconnectDelay = .seconds(30)
            let gate = Gate()
            let stuck = MQTTInbox()
            let first = try MQTTClient(configuration) { batch in
                stuck.record(batch)
                try await gate.pass()
            }
            try await first.connect()
            try await first.subscribe(["devices/#"])
            let phone = try await MQTTDevice(
                broker.configuration(user: "phone", clientID: "phone-1", protocolVersion: version))
            try await phone.publish(#"{"QRContent":"cedalo.com"}"#, to: "devices/phone-1")
            try await stuck.wait(for: 1)

            // A second connection with the same client id takes the session over: the broker sends what it has no
            // PUBACK for.
            let second = try await MQTTDevice(configuration)
            #expect(second.client.state == .connected(sessionPresent: true))
            let redelivered = try await second.messages(count: 1)
            #expect(redelivered.map(\.payload) == [Array(#"{"QRContent":"cedalo.com"}"#.utf8)])
            #expect(redelivered.map(\.topic) == ["devices/phone-1"])

            gate.open()
            await first.shutdown()
            await second.close()
            await phone.close()
        }
    }

    @Test func aFailedHandlerGetsTheBatchAgainAndASucceededOneDoesNot() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let gate = Gate()
            let received = MQTTInbox()
            let muster = try MQTTClient(broker.configuration(user: "muster", clientID: "muster")) { batch in
                received.record(batch)
                // Only the first delivery waits for the test, which makes it fail.
                if received.messages.count == 1 { try await gate.pass() }
            }
            try await muster.connect()
            try await muster.subscribe(["devices/#"])
            let phone = try await MQTTDevice(broker.configuration(user: "phone", clientID: "phone-1"))
            try await phone.publish("reading 1", to: "devices/phone-1")
            try await received.wait(for: 1)

            // The store failed: the client drops the connection without PUBACK and the broker delivers it again.
            gate.open(failing: TestFailure(description: "disk full"))
            try await received.wait(for: 2)
            #expect(received.texts == ["reading 1", "reading 1"])
            #expect(muster.counters.disconnects == 1)
            try await muster.waitForState(timeout: .seconds(10)) { $0.isConnected }
            // The handler returned just after recording; its PUBACK leaves ahead of this publish (one queue, in
            // order), so this publish's PUBACK proves the broker has it.
            try await muster.publish(topic: "muster/sync", payload: [])

            // The second delivery was stored, so acknowledged: after a broker restart the session resumes with
            // nothing in flight, and the next message is the only one to come.
            try await broker.restart()
            try await muster.waitForState(timeout: .seconds(10)) { state in
                state.isConnected && muster.counters.connects >= 3
            }
            try await phone.client.waitForState(timeout: .seconds(10)) { $0.isConnected }
            try await phone.publish("reading 2", to: "devices/phone-1")
            try await received.wait(for: 3)
            #expect(received.texts == ["reading 1", "reading 1", "reading 2"])
            await muster.shutdown()
            await phone.close()
        }
    }
}
