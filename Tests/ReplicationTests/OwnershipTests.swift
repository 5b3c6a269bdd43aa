import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

/// Who is a namespace's primary: the node holding its lease; a replica takes over once the lease lapses or is given up.
@Suite(.serialized) struct OwnershipTests {
    /// Long enough that a node renews in time on a loaded machine; the take-over test waits for a lapse and uses a
    /// shorter one.
    static let leaseTime = Duration.seconds(10)

    /// A node of the test: its log, its own connection, its part in the namespace and the task running it.
    final class Node: @unchecked Sendable {
        let name: String
        let log: EventLog
        let connection: NATSConnection
        let part: ReplicatedNamespace
        var task: Task<Void, Never>?

        init(
            _ name: String, namespace: String, cluster: NATSCluster, acknowledgement: Acknowledgement = .local,
            leaseTime: Duration = OwnershipTests.leaseTime, blobs: BlobReferences? = nil,
            secrets: SecretReferences? = nil
        ) async throws {
            self.name = name
            log = try TestLog(name).open()
            connection = try await NATSConnection.connect(
                cluster.configuration(name: name, requestTimeout: .seconds(5)))
            let leases = try await connection.keyValueBucket(
                NamespaceLease.configuration(time: leaseTime, replicas: 1))
            part = ReplicatedNamespace(
                log: log, namespace: namespace, connection: connection, leases: leases,
                options: .init(
                    holder: .init(node: name, url: "http://\(name).invalid"), leaseTime: leaseTime,
                    acknowledgement: acknowledgement, replicas: 1, blobs: blobs, secrets: secrets))
        }

        func start() { task = Task { [part] in await part.run() } }

        /// Stops taking part without giving the lease up, as a node that died would.
        func stop() async {
            task?.cancel()
            await task?.value
            task = nil
        }

        func close() async {
            await stop()
            await connection.close()
        }

        var isPrimary: Bool { part.role == .primary }
    }

    @Test func theFirstNodeTakesTheNamespaceAndTheOtherFollowsItAndTakesNoWrite() async throws {
        try await withNATS { cluster, connection in
            let namespace = uniqueNamespace()
            let a = try await Node("a", namespace: namespace, cluster: cluster)
            let b = try await Node("b", namespace: namespace, cluster: cluster)
            a.start()
            try await eventually("a to be the primary") { a.isPrimary ? true : nil }
            b.start()
            try await a.log.appendSamples(10, namespace: namespace)
            try await eventually("b to hold a's events") { b.log.head == 11 ? true : nil }
            #expect(try b.log.allStored() == a.log.allStored())
            #expect(b.part.role == .replica)
            #expect(try await b.part.primary()?.node == "a")
            let first = try #require(try b.log.read { try $0.event(at: 1) })
            #expect(first.type == "PrimaryChanged" && first.actor == "a")
            let refused = await #expect(throws: ReplicationError.self) {
                try await b.log.append(AppendRequest(namespace: namespace, stream: "s0", events: [.sample()]))
            }
            #expect(refused?.code == .notPrimary)
            #expect(b.log.head == 11)
            await a.close()
            await b.close()
        }
    }

    @Test func aNodeThatTakesOverHoldsTheBlobsAndSecretsOfTheEventsItCaughtUpWith() async throws {
        try await withNATS { cluster, connection in
            let namespace = uniqueNamespace()
            let references = (blobs: BlobReplicationTests.references, secrets: SecretReplicationTests.references)
            let a = try await Node(
                "a", namespace: namespace, cluster: cluster, blobs: references.blobs, secrets: references.secrets)
            a.start()
            try await eventually("a to be the primary") { a.isPrimary ? true : nil }
            try await a.log.appendSamples(3_000, namespace: namespace)
            let content = BlobReplicationTests.content(700_000, seed: 5)
            let blob = try await a.log.blobs.put(content).info.id
            try await a.log.append(
                AppendRequest(
                    namespace: namespace, stream: "documents", events: [NewEvent(type: "Named", body: .json(blob.hex))])
            )
            let key = try await SecretReplicationTests.configure("apns signing key", in: a.log, namespace: namespace)
            try await eventually("the stream to hold a's log") {
                try await connection.streamInfo(a.part.stream.name).lastSequence == a.log.head ? true : nil
            }
            try await a.part.release()
            await a.close()

            // b starts with an empty log and finds the lease free: it takes it at once and reads the stream to its
            // end before its first write.
            let b = try await Node(
                "b", namespace: namespace, cluster: cluster, blobs: references.blobs, secrets: references.secrets)
            b.start()
            // Its role changes in the job that appends its PrimaryChanged, which commits a moment later.
            try await eventually("b to take over") { b.isPrimary && b.log.head == a.log.head + 1 ? true : nil }
            #expect(try b.log.blobs.bytes(blob) == content)
            #expect(try b.log.secrets.secret(key) == Array("apns signing key".utf8))
            await b.close()
        }
    }

    @Test func whenThePrimaryStopsRenewingItsLeaseAReplicaTakesOverAndPositionsGoOn() async throws {
        try await withNATS { cluster, connection in
            let namespace = uniqueNamespace()
            let a = try await Node("a", namespace: namespace, cluster: cluster, leaseTime: .seconds(3))
            let b = try await Node("b", namespace: namespace, cluster: cluster, leaseTime: .seconds(3))
            a.start()
            try await eventually("a to be the primary") { a.isPrimary ? true : nil }
            b.start()
            for n in 0..<5 {  // as a client would: again after a 503 (a renewal late on a loaded machine)
                try await eventually("a to take write \(n)") { () -> Bool? in
                    do {
                        try await a.log.append(
                            AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: n)]))
                        return true
                    } catch let error as ReplicationError where error.code == .unavailable {
                        return nil
                    }
                }
            }
            try await eventually("b to hold a's events") { b.log.head == 6 ? true : nil }
            await a.stop()  // its lease lapses
            try await eventually("b to take over", timeout: .seconds(60)) { b.isPrimary ? true : nil }
            try await b.log.appendSamples(3, namespace: namespace, from: 5)
            #expect(b.log.head == 10)  // 1 + 5 of a, b's PrimaryChanged at 7, 3 more
            let changed = try #require(try b.log.read { try $0.event(at: 7) })
            #expect(changed.type == "PrimaryChanged" && changed.actor == "b")
            try await eventually("the stream to hold b's events") {
                try await connection.streamInfo(b.part.stream.name).lastSequence == 10 ? true : nil
            }
            // The old primary comes back as a replica and catches up.
            a.start()
            try await eventually("a to hold b's events") { a.log.head == 10 ? true : nil }
            #expect(a.part.role == .replica)
            #expect(try a.log.allStored() == b.log.allStored())
            await a.close()
            await b.close()
        }
    }

    @Test func aNamespaceHandedOverIsTakenAtOnceAndNoAnsweredWriteIsLost() async throws {
        try await withNATS { cluster, connection in
            let namespace = uniqueNamespace()
            let a = try await Node(
                "a", namespace: namespace, cluster: cluster, acknowledgement: .replicated(timeout: .seconds(5)))
            let b = try await Node(
                "b", namespace: namespace, cluster: cluster, acknowledgement: .replicated(timeout: .seconds(5)))
            a.start()
            try await eventually("a to be the primary") { a.isPrimary ? true : nil }
            b.start()
            var answered: [UUID] = []
            for n in 0..<20 {
                let id = UUID()
                try await a.log.append(
                    AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: n, id: id)]))
                answered.append(id)
            }
            try await a.part.release(to: "b")
            let refused = await #expect(throws: ReplicationError.self) {
                try await a.log.append(AppendRequest(namespace: namespace, stream: "s", events: [.sample()]))
            }
            #expect(refused?.code == .notPrimary)
            try await eventually("b to take over", timeout: .seconds(60)) { b.isPrimary ? true : nil }
            #expect(try await b.part.primary() == .init(node: "b", url: "http://b.invalid"))
            for n in 20..<30 {
                let id = UUID()
                try await b.log.append(
                    AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: n, id: id)]))
                answered.append(id)
            }
            let ids = try b.log.read { reader in try answered.map { try reader.position(ofEventId: $0) } }
            #expect(ids.allSatisfy { $0 != nil })
            #expect(Set(ids.compactMap { $0 }).count == 30)
            let info = try await connection.streamInfo(b.part.stream.name)
            #expect(info.lastSequence == b.log.head)
            await a.close()
            await b.close()
        }
    }
}
