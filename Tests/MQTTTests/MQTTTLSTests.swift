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

/// A broker that asks for client certificates (mosquitto `require_certificate`, `use_identity_as_username`).
@Suite(.serialized) struct MQTTClientCertificateTests {
    @Test func aClientShowingACertificateOfTheBrokersCAConnectsAsItsCommonName() async throws {
        try await withMQTTBroker(users: testUsers, clientCertificates: true) { broker in
            var configuration = broker.configuration(user: "muster", clientID: "muster")
            // No password: the certificate is the credential, its common name the user the ACL knows.
            configuration.userName = nil
            configuration.password = nil
            configuration.tls = try await broker.clientTLS(commonName: "muster")
            let inbox = MQTTInbox()
            let muster = try MQTTClient(configuration) { batch in inbox.record(batch) }
            try await muster.connect()
            try await muster.subscribe(["devices/#"])
            var phoneConfiguration = broker.configuration(user: "phone", clientID: "phone-1")
            phoneConfiguration.userName = nil
            phoneConfiguration.password = nil
            phoneConfiguration.tls = try await broker.clientTLS(commonName: "phone")
            let phone = try await MQTTDevice(phoneConfiguration)
            try await phone.publish(#"{"Battery":50}"#, to: "devices/phone-1")
            try await inbox.wait(for: 1)
            #expect(inbox.texts == [#"{"Battery":50}"#])
            // mosquitto's "New client connected … u'NAME'": the user taken from each certificate.
            #expect(broker.log.contains("u'muster'"), "\(broker.log)")
            #expect(broker.log.contains("u'phone'"), "\(broker.log)")
            await muster.shutdown()
            await phone.close()
        }
    }

    @Test func aClientWithoutACertificateIsRefusedBeforeCONNACKNamingTheBroker() async throws {
        try await withMQTTBroker(users: testUsers, clientCertificates: true) { broker in
            let client = try MQTTClient(broker.configuration(user: "muster", clientID: "muster")) { _ in }
            let error = await #expect(throws: MQTTError.self) { try await client.connect() }
            #expect(error?.code == .unreachable, "\(String(describing: error))")
            #expect(error?.message.contains("127.0.0.1:\(broker.port)") == true, "\(String(describing: error))")
            #expect(error?.message.contains("s3cret-muster-pw") == false)
            #expect(error?.message.contains("ended before CONNACK") == true, "\(String(describing: error))")
            #expect(error?.message.contains("--mqtt-cert-file") == true, "\(String(describing: error))")
            // Why, from the broker's side: the handshake wanted a certificate the client did not show.
            #expect(broker.log.contains("peer did not return a certificate"), "\(broker.log)")
            await client.shutdown()
        }
    }
}
