import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Testing

/// NATS servers that speak TLS: a client that trusts their authority connects and uses JetStream; one that does not
/// is refused and told why; servers that ask for a client certificate take only a client showing one.
@Suite(.serialized) struct TLSTests {
    @Test func aClientTrustingTheServersAuthorityConnectsOverTLSAndOneSpeakingPlainIsRefused() async throws {
        let cluster = try await NATSCluster(servers: 1, tls: true)
        defer { Task { await cluster.stopAll() } }
        let connection = try await NATSConnection.connect(cluster.configuration(name: "tls"))
        let name = "TLS_\(UUID().uuidString.prefix(8))"
        try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
        let ack = try await connection.publish(subject: "\(name).x", data: Array("over TLS".utf8))
        #expect(ack.sequence == 1)
        await connection.close()

        var plain = cluster.configuration(name: "plain")
        plain.tls = nil
        plain.connectTimeout = .seconds(1)
        let error = await #expect(throws: NATSError.self) { try await NATSConnection.connect(plain) }
        #expect(error?.call == "natsConnection_Connect", "\(String(describing: error))")

        var untrusting = cluster.configuration(name: "untrusting")
        untrusting.tls = NATSTLS(caFile: "/etc/ssl/certs/ca-certificates.crt")
        untrusting.connectTimeout = .seconds(1)
        let untrusted = await #expect(throws: NATSError.self) { try await NATSConnection.connect(untrusting) }
        #expect(untrusted?.call == "natsConnection_Connect", "\(String(describing: untrusted))")
        await cluster.stopAll()
    }

    @Test func serversAskingForAClientCertificateTakeOnlyAClientShowingOne() async throws {
        let cluster = try await NATSCluster(servers: 1, tls: true, clientCertificates: true)
        defer { Task { await cluster.stopAll() } }
        let connection = try await NATSConnection.connect(cluster.configuration(name: "with-certificate"))
        #expect(connection.state == .connected)
        await connection.close()

        var without = cluster.configuration(name: "without-certificate")
        without.tls = NATSTLS(caFile: try #require(cluster.certificates).caFile)
        without.connectTimeout = .seconds(1)
        await #expect(throws: NATSError.self) { try await NATSConnection.connect(without) }

        var half = cluster.configuration(name: "half")
        half.tls?.keyFile = nil
        let invalid = await #expect(throws: NATSError.self) { try await NATSConnection.connect(half) }
        #expect(invalid?.code == .invalidArgument, "\(String(describing: invalid))")
        await cluster.stopAll()
    }
}
