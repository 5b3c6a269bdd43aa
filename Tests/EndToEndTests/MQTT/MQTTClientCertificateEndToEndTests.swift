import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// `muster serve --mqtt mqtts://… --mqtt-ca-file … --mqtt-cert-file … --mqtt-key-file …` against a broker that
    /// takes only clients with a certificate of its CA.
    @Suite(.serialized) struct MQTTClientCertificateEndToEndTests {
        @Test func theBridgeConnectsWithItsClientCertificate() async throws {
            try await withMQTTBroker(
                users: [.everything(name: "muster", password: "not-used-with-a-certificate")], clientCertificates: true
            ) { broker in
                let tls = try await broker.clientTLS(commonName: "muster")
                let certificateFile = try #require(tls.certificateFile)
                let keyFile = try #require(tls.keyFile)
                let server = try await ServerProcess(extraArguments: [
                    "--mqtt", broker.url, "--mqtt-ca-file", tls.caFile, "--mqtt-cert-file", certificateFile,
                    "--mqtt-key-file", keyFile,
                ])
                do {
                    let ada = try await server.login("ada", password: "secret-ada")
                    let deadline = ContinuousClock.now + .seconds(20)
                    var status = try await server.send("GET", "api/v1/mqtt/status", token: ada)
                    while (status.object["state"] as? String)?.hasPrefix("connected") != true,
                        ContinuousClock.now < deadline
                    {
                        try await Task.sleep(for: .milliseconds(50))
                        status = try await server.send("GET", "api/v1/mqtt/status", token: ada)
                    }
                    #expect((status.object["state"] as? String)?.hasPrefix("connected") == true, "\(status.text)")
                    #expect(status.object["broker"] as? String == "127.0.0.1:\(broker.port)", "\(status.text)")
                    #expect(broker.log.contains("u'muster'"), "the broker took the certificate's name: \(broker.log)")
                } catch {
                    _ = await server.stop()
                    throw error
                }
                _ = await server.stop()
            }
        }
    }
}
