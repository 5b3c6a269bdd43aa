import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// A put whose completing work (the event that names the blob) runs in the blob's own transaction.
@Suite struct BlobCommitTests {
    struct Refused: Error {}

    @Test func aThrowFromTheCompletingWorkKeepsNeitherTheBlobNorItsChunks() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        // Nine chunks: eight are committed on the way, before the completing work refuses.
        let content = randomBytes(9 << 20)
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(content)
            continuation.finish()
        }
        await #expect(throws: Refused.self) {
            try await log.blobs.put(stream) { _, _ -> Int in throw Refused() }
        }
        let chunks = try log.environment.read { txn in try txn.count(BlobTables.open(in: txn)!.chunks) }
        #expect(chunks == 0)
        #expect(try log.blobs.totals() == BlobTotals())
        #expect(log.head == 0)
    }

    @Test func theCompletingWorkAppendsInTheBlobsTransaction() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let file = t.directory.url.appendingPathComponent("clip")
        try Data(compressibleBytes(100_000)).write(to: file)
        let position = try await log.blobs.put(contentsOf: file) { scope, receipt in
            try scope.append(
                AppendRequest(
                    stream: "clip",
                    events: [NewEvent(type: "ClipStored", body: .binary(Array(receipt.info.id.hex.utf8)))]))
            return scope.head
        }
        #expect(position == 1)
        #expect(try log.blobs.totals().count == 1)
    }
}
