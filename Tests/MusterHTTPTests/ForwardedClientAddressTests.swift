import Crypto
import EventLog
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Replication
import Testing

/// A primary of a cluster counts a request a replica forwarded by the client's address, which the replica names in
/// `Muster-Forwarded-For` and signs with the cluster's key — and by nothing a client could write itself.
struct ForwardedClientAddressTests {
    static let key = ForwardingKey(SymmetricKey(size: .bits256))

    /// The headers a replica, node b, adds to a forwarded login of a client at `address`, signed with `key` at `time`.
    static func forwarded(
        from address: String, key: ForwardingKey = key, time: Int = Int(Date().timeIntervalSince1970)
    ) -> HTTPFields {
        let claim = ForwardingKey.Claim(
            address: address, node: "b", method: "POST", target: "/api/v1/auth/token", time: time)
        return [
            .init("Muster-Forwarded-By")!: "b", .init("Muster-Forwarded-For")!: address,
            .init("Muster-Forwarded-At")!: String(time), .init("Muster-Forwarded-Signature")!: key.signature(of: claim),
        ]
    }

    /// The client address each failed login was recorded with.
    static func failedFrom(_ api: APITester) throws -> [String?] {
        try api.log.events(EventQuery(type: LoginFailed.type)).compactMap { try LoginFailed.decode($0) }.map {
            $0.clientAddress
        }
    }

    static func failLogin(_ client: APITester.Client, _ headers: HTTPFields) async throws {
        let answer = try await client.send(
            .post, "/api/v1/auth/token", json: #"{"username":"ada","password":"guess"}"#, headers: headers)
        #expect(answer.status == .unauthorized)
    }

    @Test func aSignedAddressIsTheClients() async throws {
        let api = try await APITester.make { $0.forwardingKey = Self.key }
        defer { api.remove() }
        try await api.run { client in try await Self.failLogin(client, Self.forwarded(from: "192.0.2.66")) }
        #expect(try Self.failedFrom(api) == ["192.0.2.66"])
    }

    @Test func anAddressSignedWithAnotherKeyOrLongAgoOrByNoClusterIsNot() async throws {
        let api = try await APITester.make { $0.forwardingKey = Self.key }
        defer { api.remove() }
        try await api.run { client in
            let other = ForwardingKey(SymmetricKey(size: .bits256))
            try await Self.failLogin(client, Self.forwarded(from: "192.0.2.66", key: other))
            let old = Int(Date().timeIntervalSince1970) - 120
            try await Self.failLogin(client, Self.forwarded(from: "192.0.2.67", time: old))
            var forged = Self.forwarded(from: "192.0.2.68")
            forged[.init("Muster-Forwarded-For")!] = "192.0.2.69"
            try await Self.failLogin(client, forged)
        }
        // The router has no connected peer here: the address is unknown rather than the one claimed.
        #expect(try Self.failedFrom(api) == [nil, nil, nil])

        let single = try await APITester.make()
        defer { single.remove() }
        try await single.run { client in try await Self.failLogin(client, Self.forwarded(from: "192.0.2.66")) }
        #expect(try Self.failedFrom(single) == [nil], "a server of no cluster ignores the headers")
    }
}
