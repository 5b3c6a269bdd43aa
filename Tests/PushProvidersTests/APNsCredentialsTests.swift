import Foundation
import PushProviders
import PushTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct APNsCredentialsTests {
    @Test func certificateAuthenticationDeliversWithTheClientCertificate() async throws {
        let client = try TestCertificate.selfSigned(commonName: APNsWorld.topic, dnsNames: [], ipv4Addresses: [])
        let identity = try APNsClientIdentity(pkcs12: try client.pkcs12(password: "s3cret"), password: "s3cret")
        let server = try await APNsServer.start(
            topic: APNsWorld.topic, authentication: .certificate(trusting: [try client.nioCertificate()]))
        let provider = await APNsProvider(
            try APNsConfiguration(
                authentication: .certificate(identity), topic: APNsWorld.topic, endpoint: server.endpoint),
            options: .init(additionalTrustRoots: server.trustRoots))
        let outcome = await provider.send(try APNsWorld.push())
        let pushes = await server.waitForPushes(1)
        try await provider.shutdown()
        await server.stop()
        let received = try #require(pushes.first)

        #expect(outcome == .delivered(providerId: received.apnsId))
        #expect(received.refusal == nil)
        #expect(received.presentedClientCertificate)
        #expect(received.httpVersion == "2")
        #expect(received.headers["authorization"] == nil)
    }

    @Test func aClientCertificateTheServerDoesNotTrustIsRetriedAsAConnectionFailure() async throws {
        let trusted = try TestCertificate.selfSigned(commonName: APNsWorld.topic, dnsNames: [], ipv4Addresses: [])
        let other = try TestCertificate.selfSigned(commonName: "someone else", dnsNames: [], ipv4Addresses: [])
        let server = try await APNsServer.start(
            topic: APNsWorld.topic, authentication: .certificate(trusting: [try trusted.nioCertificate()]))
        let identity = try APNsClientIdentity(pkcs12: try other.pkcs12(password: "pw"), password: "pw")
        let provider = await APNsProvider(
            try APNsConfiguration(
                authentication: .certificate(identity), topic: APNsWorld.topic, endpoint: server.endpoint),
            options: .init(additionalTrustRoots: server.trustRoots, timeout: .seconds(3)))
        let outcome = await provider.send(try APNsWorld.push())
        let received = server.pushes
        try await provider.shutdown()
        await server.stop()

        guard case .retry(nil, _, nil) = outcome else {
            Issue.record("expected a retry without status, got \(outcome)")
            return
        }
        #expect(received.isEmpty)
    }

    @Test func aWrongPKCS12PasswordNamesThePasswordArgument() throws {
        let client = try TestCertificate.selfSigned(commonName: APNsWorld.topic)
        let p12 = try client.pkcs12(password: "right")
        let error = #expect(throws: PushConfigurationError.self) {
            try APNsClientIdentity(pkcs12: p12, password: "wrong")
        }
        #expect(error?.argument == "--password-stdin")
    }

    @Test func aFileThatIsNotPKCS12NamesTheCertificateArgument() throws {
        let client = try TestCertificate.selfSigned(commonName: APNsWorld.topic)
        for bytes in [Array(client.certificatePEM.utf8), [0x30, 0x82] + [UInt8](repeating: 7, count: 40)] {
            let error = #expect(throws: PushConfigurationError.self) {
                try APNsClientIdentity(pkcs12: bytes, password: "right")
            }
            #expect(error?.argument == "--certificate")
        }
    }

    @Test(arguments: [
        "not a key",
        // A P-384 key is not the P-256 key APNs issues.
        APNsTestKey.p384PEM(),
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    ])
    func aMalformedSigningKeyNamesTheKeyFile(pem: String) {
        let error = #expect(throws: PushConfigurationError.self) { try APNsSigningKey(pem: pem) }
        #expect(error?.argument == "--key-file")
        #expect(error?.message.contains("PKCS#8 P-256 private key in PEM") == true)
    }

    @Test func theP8KeyOfAppleLoads() throws {
        let key = APNsTestKey()
        #expect(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try APNsSigningKey(pem: key.pem).publicKeyPEM == key.publicKeyPEM)
    }

    @Test(arguments: [
        ("SHORT", "TEAM123456", "com.example.muster", "--key-id"),
        ("ABC123DEF!", "TEAM123456", "com.example.muster", "--key-id"),
        ("ABC123DEFG", "TEAM12345678", "com.example.muster", "--team-id"),
        ("ABC123DEFG", "TEAM123456", " ", "--topic"),
    ])
    func badSettingsNameTheirArgument(keyId: String, teamId: String, topic: String, argument: String) throws {
        let key = try APNsSigningKey(pem: APNsTestKey().pem)
        let error = #expect(throws: PushConfigurationError.self) {
            try APNsConfiguration(authentication: .token(key, keyId: keyId, teamId: teamId), topic: topic)
        }
        #expect(error?.argument == argument)
    }

    @Test func sandboxAndProductionHostsAndTheEndpointOverride() throws {
        let key = try APNsSigningKey(pem: APNsTestKey().pem)
        let auth = APNsConfiguration.Authentication.token(key, keyId: "ABC123DEFG", teamId: "TEAM123456")
        #expect(try APNsConfiguration(authentication: auth, topic: "t").origin == "https://api.push.apple.com:443")
        #expect(
            try APNsConfiguration(authentication: auth, topic: "t", sandbox: true).origin
                == "https://api.sandbox.push.apple.com:443")
        #expect(
            try APNsConfiguration(authentication: auth, topic: "t", endpoint: URL(string: "https://127.0.0.1:8443/"))
                .origin == "https://127.0.0.1:8443")
        #expect(throws: PushConfigurationError.self) {
            try APNsConfiguration(authentication: auth, topic: "t", endpoint: URL(string: "ftp://x"))
        }
    }
}
