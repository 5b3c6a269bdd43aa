import Crypto
import Foundation
import NATS

/// The key the nodes of a cluster sign what a replica tells the primary about a request it forwards: the address of
/// the client, so the primary counts the client — not the replica — in its rate limits and failed-login throttle.
///
/// One key per cluster: 256 random bits made by the first node that starts, kept in the key-value bucket
/// `MUSTER_CLUSTER` (no time to live), read by every other node. Whoever can read it can also write the cluster's
/// logs. It never enters a log line or the event log.
public struct ForwardingKey: Sendable, CustomStringConvertible {
    /// The bucket of the cluster's own settings.
    public static let bucket = "MUSTER_CLUSTER"
    static let entry = "forwarding-key"
    /// How far the time a replica signed at may be from the primary's clock.
    public static let tolerance = 30

    private let key: SymmetricKey

    public init(_ key: SymmetricKey) { self.key = key }

    /// Never the key's bits, wherever a configuration is printed.
    public var description: String { "ForwardingKey(256 bits, not shown)" }

    /// The cluster's key: read from the bucket, or — by the first node — made and kept there. Two nodes starting at
    /// once agree: the one whose create fails reads the other's.
    public static func load(_ connection: NATSConnection, replicas: Int) async throws -> ForwardingKey {
        let settings = try await connection.keyValueBucket(
            KeyValueConfiguration(bucket: bucket, history: 1, replicas: replicas))
        if let stored = try await settings.get(entry) { return ForwardingKey(SymmetricKey(data: stored.value)) }
        let made = SymmetricKey(size: .bits256)
        do {
            try await settings.create(entry, value: made.withUnsafeBytes { Array($0) })
            return ForwardingKey(made)
        } catch let error as NATSError where error.code == .keyExists {
            guard let stored = try await settings.get(entry) else { throw error }
            return ForwardingKey(SymmetricKey(data: stored.value))
        }
    }

    /// What a replica says of one forwarded request.
    public struct Claim: Sendable, Hashable {
        /// The client's address, as the replica determined it.
        public var address: String
        /// The replica's node name.
        public var node: String
        /// The request's method and target (path and query), as forwarded.
        public var method: String
        public var target: String
        /// When the replica signed, in seconds since 1970.
        public var time: Int

        public init(address: String, node: String, method: String, target: String, time: Int) {
            self.address = address
            self.node = node
            self.method = method
            self.target = target
            self.time = time
        }

        /// The bytes signed: each part on a line of its own (none contains a line break).
        var message: Data { Data([address, node, method, target, String(time)].joined(separator: "\n").utf8) }
    }

    /// The signature of `claim` (HMAC-SHA256, base64).
    public func signature(of claim: Claim) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: claim.message, using: key)).base64EncodedString()
    }

    /// True when `signature` is this key's for `claim` and it was signed within ``tolerance`` seconds of `now`.
    public func verifies(_ signature: String, of claim: Claim, now: Int) -> Bool {
        guard abs(now - claim.time) <= Self.tolerance, let code = Data(base64Encoded: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: claim.message, using: key)
    }
}
