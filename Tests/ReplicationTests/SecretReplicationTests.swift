import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A secret an event names (a push key) travels with it, outside the log: the primary puts it into the cluster's secret
/// bucket before the event, and a replica keeps it in its own secret store before appending the event — so a replica
/// that takes the namespace over can sign its pushes. A secret no event uses any more is erased from both.
struct SecretReplicationTests {
    /// `Configured` events name the secret whose fingerprint is their body; `Removed` ones stop using it.
    static let references = SecretReferences(
        named: { $0.type == "Configured" ? [String(decoding: $0.body.bytes, as: UTF8.self)] : [] },
        mayRelease: { $0.type == "Removed" },
        inUse: { log in
            var used: Set<String> = []
            for event in try log.allStored().map({ try $0.recorded() }) {
                let fingerprint = String(decoding: event.body.bytes, as: UTF8.self)
                if event.type == "Configured" { used.insert(fingerprint) }
                if event.type == "Removed" { used.remove(fingerprint) }
            }
            return used
        })

    /// Keeps `secret` in `log`'s secret store and appends the event that names it.
    static func configure(_ secret: String, in log: EventLog, namespace: String) async throws -> String {
        let fingerprint = try log.secrets.store(Array(secret.utf8))
        try await log.append(
            AppendRequest(
                namespace: namespace, stream: "sources",
                events: [NewEvent(type: "Configured", body: .json(fingerprint))]
            ))
        return fingerprint
    }

    /// The fingerprints of `namespace`'s secrets the bucket holds now.
    static func bucketHolds(_ namespace: String, over connection: NATSConnection) async throws -> Set<String> {
        let prefix = NamespaceStream(namespace: namespace).suffix + "."
        let keys = try await connection.existingKeyValueBucket(SecretBucket.name).keys()
        return Set(keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
    }

    /// The permission bits of the file holding the secret `fingerprint` in `log`'s store.
    static func mode(of fingerprint: String, in log: EventLog) -> mode_t {
        var info = stat()
        stat(log.secrets.directory.appendingPathComponent(fingerprint).path, &info)
        return info.st_mode & 0o777
    }

    @Test func aReplicaKeepsTheSecretsItsEventsNameAndErasesThoseNoLongerUsed() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let replica = try TestLog("replica").open()
            let apns = try await Self.configure("apns signing key", in: primary, namespace: namespace)
            let vapid = try await Self.configure("vapid private key", in: primary, namespace: namespace)
            try await primary.appendSamples(5, namespace: namespace)
            let publisher = LogPublisher(
                log: primary, namespace: namespace, connection: connection, replicas: 1, secrets: Self.references)
            let follower = LogFollower(
                log: replica, namespace: namespace, connection: connection, secrets: Self.references)
            try await running(publisher.run) {
                try await running(follower.run) {
                    try await eventually("the replica to reach the primary's head") {
                        replica.head == primary.head ? true : nil
                    }
                    #expect(try replica.secrets.secret(apns) == Array("apns signing key".utf8))
                    #expect(try replica.secrets.secret(vapid) == Array("vapid private key".utf8))
                    #expect(Self.mode(of: apns, in: replica) == 0o600)
                    #expect(try await Self.bucketHolds(namespace, over: connection) == [apns, vapid])

                    // The source of the APNs key is removed on the primary (which erases its own copy).
                    try await primary.append(
                        AppendRequest(
                            namespace: namespace, stream: "sources",
                            events: [NewEvent(type: "Removed", body: .json(apns))]))
                    try primary.secrets.remove(apns)
                    try await eventually("the replica to erase the key no event uses") {
                        try replica.secrets.secret(apns) == nil ? true : nil
                    }
                    try await eventually("the bucket to erase it") {
                        try await Self.bucketHolds(namespace, over: connection) == [vapid] ? true : nil
                    }
                    #expect(try replica.secrets.fingerprints() == [vapid])
                }
            }
            #expect(try replica.allStored() == primary.allStored())
        }
    }

    @Test func secretsNamedBeforeTheyWereReplicatedReachTheReplicaWhenTheNodesStartAgain() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let replica = try TestLog("replica").open()
            let key = try await Self.configure("fcm service account", in: primary, namespace: namespace)
            // A release that replicated no secret: the replica holds the event, not the key.
            try await running(LogPublisher(log: primary, namespace: namespace, connection: connection, replicas: 1).run)
            {
                try await running(LogFollower(log: replica, namespace: namespace, connection: connection).run) {
                    try await eventually("the replica to reach the primary's head") {
                        replica.head == primary.head ? true : nil
                    }
                }
            }
            #expect(try replica.secrets.secret(key) == nil)

            let publisher = LogPublisher(
                log: primary, namespace: namespace, connection: connection, replicas: 1, secrets: Self.references)
            let follower = LogFollower(
                log: replica, namespace: namespace, connection: connection, secrets: Self.references)
            try await running(publisher.run) {
                try await running(follower.run) {
                    try await eventually("the replica to fetch the key its log uses") {
                        try replica.secrets.secret(key) == Array("fcm service account".utf8) ? true : nil
                    }
                }
            }
        }
    }
}
