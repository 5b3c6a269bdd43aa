import MQTT
import MQTTTesting
import Testing

@Suite(.serialized) struct MQTTUnsubscribeTests {
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func anUnsubscribedTopicIsNeitherDeliveredNorListed(version: MQTTProtocolVersion) async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let received = MQTTInbox()
            let muster = try MQTTClient(
                broker.configuration(user: "muster", clientID: "muster", protocolVersion: version)
            ) { batch in received.record(batch) }
            try await muster.connect()
            try await muster.subscribe(["devices/old", "devices/new"])
            try await muster.unsubscribe(["devices/old"])
            #expect(muster.subscriptions == ["devices/new"])

            let phone = try await MQTTDevice(
                broker.configuration(user: "phone", clientID: "phone-1", protocolVersion: version))
            // In this order: had the broker kept the old subscription, "old" would arrive first.
            try await phone.publish("old", to: "devices/old")
            try await phone.publish("new", to: "devices/new")
            try await received.wait(for: 1)
            #expect(received.texts == ["new"])
            await muster.shutdown()
            await phone.close()
        }
    }

    @Test func unsubscribingWhileNotConnectedFailsAndKeepsTheTopicListed() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let muster = try MQTTClient(broker.configuration(user: "muster", clientID: "muster")) { _ in }
            try await muster.connect()
            try await muster.subscribe(["devices/old"])
            await broker.stop()
            try await muster.waitForState(timeout: .seconds(20)) { !$0.isConnected }
            let error = await #expect(throws: MQTTError.self) { try await muster.unsubscribe(["devices/old"]) }
            #expect(error?.code == .notConnected, "\(String(describing: error))")
            #expect(muster.subscriptions == ["devices/old"])
            await muster.shutdown()
        }
    }
}
