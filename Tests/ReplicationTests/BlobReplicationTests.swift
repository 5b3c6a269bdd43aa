import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

/// A blob an event names travels with it: the primary publishes it to the namespace's blob stream before the event,
/// and a replica stores it before appending the event, so a replica holding the event holds its content.
struct BlobReplicationTests {
    /// Events of type `Named` name the blob whose hex their body is.
    static let references: BlobReferences = { event in
        guard event.type == "Named" else { return [] }
        return BlobID(hex: String(decoding: event.body.bytes, as: UTF8.self)).map { [$0] } ?? []
    }

    /// `count` bytes that do not compress: the parts are as large as they go.
    static func content(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func aReplicaHoldsTheBlobOfEveryEventItHoldsWhateverItsSize() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let replica = try TestLog("replica").open()
            let publisher = LogPublisher(
                log: primary, namespace: namespace, connection: connection, replicas: 1, blobs: Self.references)
            let follower = LogFollower(
                log: replica, namespace: namespace, connection: connection, blobs: Self.references)
            // One blob in one part, one of exactly two parts' size, one of three parts; the second named twice.
            let contents = [
                Self.content(1_000, seed: 1), Self.content(1 << 20, seed: 2), Self.content(1_200_000, seed: 3),
            ]
            var ids: [BlobID] = []
            for content in contents { ids.append(try await primary.blobs.put(content).info.id) }
            for id in ids + [ids[1]] {
                try await primary.append(
                    AppendRequest(
                        namespace: namespace, stream: "documents",
                        events: [NewEvent(type: "Named", body: .json(id.hex))]))
            }
            try await primary.appendSamples(5, namespace: namespace)
            try await running(publisher.run) {
                try await running(follower.run) {
                    try await eventually("the replica to reach the primary's head") {
                        replica.head == primary.head ? true : nil
                    }
                }
            }
            for (id, content) in zip(ids, contents) {
                #expect(try replica.blobs.bytes(id) == content, "blob \(id)")
            }
            #expect(try replica.blobs.totals().count == 3)
            #expect(try replica.allStored() == primary.allStored())
            let blobs = try await connection.streamInfo(publisher.blobStream.name)
            #expect(blobs.messages == 1 + 2 + 3, "each part once, though one blob is named twice")
        }
    }

    @Test func aBlobWhosePublishWasCutShortIsSentAgainWhole() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let replica = try TestLog("replica").open()
            let content = Self.content(1_200_000, seed: 4)
            let id = try await primary.blobs.put(content).info.id
            try await primary.append(
                AppendRequest(
                    namespace: namespace, stream: "documents", events: [NewEvent(type: "Named", body: .json(id.hex))]))
            // A publisher that died after the first of the blob's three parts.
            let blobStream = BlobStream(namespace: namespace)
            try await connection.createOrUpdateStream(blobStream.configuration(replicas: 1))
            _ = try await connection.publish(
                subject: "muster.blob.\(blobStream.namespace.suffix).\(id.hex).0",
                data: withUnsafeBytes(of: UInt32(3).bigEndian) { Array($0) } + content.prefix(512 << 10),
                messageID: "\(id.hex).0")

            let publisher = LogPublisher(
                log: primary, namespace: namespace, connection: connection, replicas: 1, blobs: Self.references)
            let follower = LogFollower(
                log: replica, namespace: namespace, connection: connection, blobs: Self.references)
            try await running(publisher.run) {
                try await running(follower.run) {
                    try await eventually("the replica to reach the primary's head") {
                        replica.head == primary.head ? true : nil
                    }
                }
            }
            #expect(try replica.blobs.bytes(id) == content)
        }
    }
}
