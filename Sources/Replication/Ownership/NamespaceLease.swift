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

    /// The key of `node`'s report on this namespace.
    func reportKey(_ node: String) -> String { "node.\(key.dropFirst(3)).\(node)" }

    /// The key of a request to move this namespace to another node.
    var moveKey: String { "move.\(key.dropFirst(3))" }

    /// Writes what `report.node` says of itself.
    public func report(_ report: NodeReport) async throws {
        try await leases.put(reportKey(report.node), value: Array(try JSONEncoder().encode(report)))
    }

    /// Asks the namespace's primary to hand it over to `node` (`muster cluster move`); the request lapses with the
    /// lease time when no primary acts on it.
    public func requestMove(to node: String) async throws {
        try await leases.put(moveKey, value: Array(node.utf8))
    }

    /// The node a move request names, if there is one.
    public func moveRequest() async throws -> String? {
        try await leases.get(moveKey).map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// Removes the move request once acted on.
    public func clearMoveRequest() async throws { try await leases.delete(moveKey) }
}

extension NamespaceLease {
    /// Every namespace's lease holder and every node's report, as the bucket holds them now.
    public static func cluster(_ leases: KeyValueBucket) async throws -> (
        holders: [String: Holder], reports: [NodeReport]
    ) {
        var holders: [String: Holder] = [:]
        var reports: [NodeReport] = []
        for key in try await leases.keys() {
            guard let entry = try await leases.get(key) else { continue }
            if key.hasPrefix("ns.") {
                holders[String(key.dropFirst(3))] = try? JSONDecoder().decode(Holder.self, from: Data(entry.value))
            } else if key.hasPrefix("node."),
                let report = try? JSONDecoder().decode(NodeReport.self, from: Data(entry.value))
            {
                reports.append(report)
            }
        }
        return (holders, reports)
    }
}
