import MQTT
import MQTTTesting
import Testing

@Suite(.serialized) struct MQTTTLSTests {
    @Test func anMQTTSURLWithTheBrokersCAConnectsAndCarriesMessages() async throws {
        try await withMQTTBroker(users: testUsers, tls: true) { broker in
            let caFile = try #require(broker.caFile)
            #expect(broker.url.hasPrefix("mqtts://"))
            let configuration = try MQTTConfiguration(
                url: broker.url, clientID: "muster", userName: "muster", password: "s3cret-muster-pw",
                tls: MQTTTLS(caFile: caFile))
            let inbox = MQTTInbox()
            let muster = try MQTTClient(configuration) { batch in inbox.record(batch) }
            try await muster.connect()
            try await muster.subscribe(["devices/#"])
            let phone = try await MQTTDevice(broker.configuration(user: "phone", clientID: "phone-1"))
            try await phone.publish(#"{"GPS":{"Latitude":47.9942,"Longitude":7.8397}}"#, to: "devices/phone-1")
            try await inbox.wait(for: 1)
            #expect(inbox.texts == [#"{"GPS":{"Latitude":47.9942,"Longitude":7.8397}}"#])
            await muster.shutdown()
            await phone.close()
        }
    }

    @Test func aBrokerCertificateFromAnotherCAIsNotTrusted() async throws {
        try await withMQTTBroker(users: testUsers, tls: true) { broker in
            var configuration = broker.configuration(user: "muster", clientID: "muster")
            configuration.tls = MQTTTLS(caFile: "/etc/ssl/certs/ca-certificates.crt")
            let client = try MQTTClient(configuration) { _ in }
            let error = await #expect(throws: MQTTError.self) { try await client.connect() }
            #expect(error?.code == .unreachable)
            #expect(error?.message.contains("127.0.0.1:\(broker.port)") == true)
            #expect(error?.message.contains("TLS") == true)
            #expect(error?.message.contains("s3cret-muster-pw") == false)
            await client.shutdown()
        }
    }
}
