import Foundation
import NATS

/// A node's lease on a namespace: the key `ns.SUFFIX` of the key-value bucket `MUSTER_LEASES`, whose entries lapse
/// after the bucket's time to live unless written again. Whoever created the entry holds the lease while it renews it
/// by compare-and-set on its revision; once an entry lapses (or is deleted), the next `create` wins it.
public struct NamespaceLease: Sendable {
    /// Who holds a lease, as the entry says.
    public struct Holder: Codable, Sendable, Hashable {
        /// The node's name.
        public var node: String
        /// Where the node serves HTTP, for forwarding writes to it.
        public var url: String
        /// The node the holder hands the namespace over to: it has stopped taking writes and published them all, and
        /// only that node may take the lease (until it lapses).
        public var successor: String?

        public init(node: String, url: String, successor: String? = nil) {
            self.node = node
            self.url = url
            self.successor = successor
        }
    }

    /// The bucket of every namespace's lease.
    public static let bucket = "MUSTER_LEASES"

    let leases: KeyValueBucket
    /// The key of the namespace's lease.
    public let key: String

    public init(leases: KeyValueBucket, stream: NamespaceStream) {
        self.leases = leases
        key = "ns." + stream.suffix
    }

    /// The bucket's settings for leases of `time`, kept on `replicas` servers.
    public static func configuration(time: Duration, replicas: Int) -> KeyValueConfiguration {
        KeyValueConfiguration(bucket: bucket, history: 1, ttl: time, replicas: replicas)
    }

    /// The holder now and the entry's revision, or nil when nobody holds it.
    public func current() async throws -> (holder: Holder, revision: UInt64)? {
        guard let entry = try await leases.get(key) else { return nil }
        return (try JSONDecoder().decode(Holder.self, from: Data(entry.value)), entry.revision)
    }

    /// Takes the lease for `holder` when nobody holds it; returns the revision. Throws `keyExists` when somebody does.
    public func take(as holder: Holder) async throws -> UInt64 {
        try await leases.create(key, value: Array(try JSONEncoder().encode(holder)))
    }

    /// Takes the lease for `holder` from a holder that hands it over at `revision` (see `Holder.successor`).
    public func takeOver(as holder: Holder, revision: UInt64) async throws -> UInt64 {
        try await renew(as: holder, revision: revision)
    }

    /// Renews the lease held at `revision`; returns the new revision. Throws `wrongRevision` when it is no longer held
    /// so (it lapsed and somebody else took it, or it was released).
    public func renew(as holder: Holder, revision: UInt64) async throws -> UInt64 {
        try await leases.update(key, value: Array(try JSONEncoder().encode(holder)), lastRevision: revision)
    }

    /// Gives the lease up, if it is still held at `revision`.
    public func release(revision: UInt64) async throws {
        try await leases.delete(key, lastRevision: revision)
    }
}
