import MQTT
import MQTTTesting
import Testing

@Suite(.serialized) struct MQTTConnectTests {
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func theRightPasswordConnects(version: MQTTProtocolVersion) async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let client = try MQTTClient(
                broker.configuration(user: "muster", clientID: "muster-right", protocolVersion: version)
            ) { _ in }
            try await client.connect()
            #expect(client.state == .connected(sessionPresent: false))
            #expect(client.counters.connects == 1)
            await client.shutdown()
            #expect(client.state == .stopped(reason: "shut down"))
        }
    }

    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func aWrongPasswordIsRefusedWithoutShowingIt(version: MQTTProtocolVersion) async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            var configuration = broker.configuration(user: "muster", clientID: "muster-wrong", protocolVersion: version)
            configuration.password = "not-the-password-xyz"
            let client = try MQTTClient(configuration) { _ in }
            let error = await #expect(throws: MQTTError.self) { try await client.connect() }
            #expect(error?.code == .refused)
            #expect(error?.message.contains("user name or password") == true)
            #expect(error?.message.contains("user muster") == true)
            #expect(error?.message.contains(broker.url.replacingOccurrences(of: "mqtt://", with: "")) == true)
            #expect(error?.message.contains("not-the-password-xyz") == false)
            #expect(error?.reasonCode == (version == .v5 ? 0x87 : 5))
            #expect(client.counters.connectsRefused == 1)
            await client.shutdown()
            #expect(!client.state.isConnected)
        }
    }

    @Test func anUnreachableBrokerIsNamed() async throws {
        let port = try await withMQTTBroker(users: testUsers) { broker in broker.port }
        // The broker is gone: nothing listens on its port now.
        let configuration = MQTTConfiguration(
            host: "127.0.0.1", port: port, clientID: "muster-unreachable", userName: "muster", password: "pw-hidden")
        let client = try MQTTClient(configuration) { _ in }
        let error = await #expect(throws: MQTTError.self) { try await client.connect() }
        #expect(error?.code == .unreachable)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true)
        #expect(error?.message.contains("Connection refused") == true)
        #expect(error?.message.contains("pw-hidden") == false)
        await client.shutdown()
    }

    @Test func publishingWhileNotConnectedFailsAtOnce() async throws {
        let client = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", clientID: "never-connected")) { _ in }
        let error = await #expect(throws: MQTTError.self) {
            try await client.publish(topic: "muster/x", payload: [1], timeout: .seconds(30))
        }
        #expect(error?.code == .notConnected)
        #expect(client.counters.publishesNotConnected == 1)
        await client.shutdown()
    }
}
