import EventLog
import Foundation
import NATS

/// Where the secrets of a cluster's namespaces travel between nodes: the key-value bucket `MUSTER_SECRETS` (no time to
/// live, one value per key), key `SUFFIX.FINGERPRINT`, value the secret's bytes. A node's own copies stay in its data
/// directory's `secrets/` (owner-only); the log only ever holds fingerprints.
///
/// The primary puts a secret before the first event that names it, and deletes it once no event of the log uses it;
/// a replica stores it before it appends that event, and erases its copy once its log no longer uses it. So the node
/// that takes a namespace over can sign its pushes, and a removed key is gone from every node and from NATS. Whoever
/// can read the cluster's NATS can read these keys, as they can read and write its logs.
public struct SecretBucket: Sendable {
    /// The bucket's name.
    public static let name = "MUSTER_SECRETS"

    /// The namespace whose secrets it holds.
    public let namespace: NamespaceStream
    let bucket: KeyValueBucket

    init(namespace: NamespaceStream, bucket: KeyValueBucket) {
        self.namespace = namespace
        self.bucket = bucket
    }

    /// The bucket, made by the first node that needs it, with `replicas` copies.
    static func open(_ namespace: NamespaceStream, over connection: NATSConnection, replicas: Int) async throws
        -> SecretBucket
    {
        let bucket = try await connection.keyValueBucket(KeyValueConfiguration(bucket: name, replicas: replicas))
        return SecretBucket(namespace: namespace, bucket: bucket)
    }

    /// The bucket as some primary made it; nil while none has (no secret was ever put).
    static func existing(_ namespace: NamespaceStream, over connection: NATSConnection) async throws -> SecretBucket? {
        do {
            return SecretBucket(namespace: namespace, bucket: try await connection.existingKeyValueBucket(name))
        } catch let error as NATSError where error.code == .notFound {
            return nil
        }
    }

    private var prefix: String { namespace.suffix + "." }

    /// The secret with this fingerprint; nil when the bucket has none.
    func secret(_ fingerprint: String) async throws -> [UInt8]? {
        try await bucket.get(prefix + fingerprint)?.value
    }

    /// Keeps `secret` under its fingerprint.
    func put(_ fingerprint: String, _ secret: [UInt8]) async throws {
        try await bucket.put(prefix + fingerprint, value: secret)
    }

    /// The fingerprints of this namespace's secrets the bucket holds.
    func fingerprints() async throws -> Set<String> {
        Set(try await bucket.keys().filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
    }

    /// Deletes the secret with this fingerprint (a delete marker takes the value's place: one value per key).
    func delete(_ fingerprint: String) async throws {
        try await bucket.delete(prefix + fingerprint)
    }
}
