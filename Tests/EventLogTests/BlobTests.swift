import Crypto
import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// Bytes that zstd shrinks a lot: repeated text with a counter.
func compressibleBytes(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 64)
    var line = 0
    while bytes.count < count {
        bytes += Array("line \(line): the quick brown fox jumps over the lazy dog\n".utf8)
        line += 1
    }
    return Array(bytes.prefix(count))
}

/// Flips one byte of a stored chunk value through a write transaction, as disk damage would.
func damageChunk(_ log: EventLog, of info: BlobInfo, index: UInt32, at offset: Int) async throws {
    let upload = info.uploadId
    try await log.perform { scope in
        let tables = try BlobTables.open(in: scope.txn)!
        let key = BlobTables.chunkKey(upload: upload, index: index)
        var value = try #require(try scope.txn.get(tables.chunks, key))
        value[offset] ^= 0x5A
        try scope.txn.put(tables.chunks, key, value)
    }
}

@Suite struct BlobTests {
    static let mebibyte = 1 << 20

    @Test(arguments: [
        ("empty", 0, false), ("one byte", 1, false), ("exactly 1 MiB", mebibyte, true),
        ("3.5 MiB compressible", 7 * mebibyte / 2, true), ("3.5 MiB random", 7 * mebibyte / 2, false),
    ])
    func contentRoundTripsThroughChunks(label: String, size: Int, compressible: Bool) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let content = compressible ? compressibleBytes(size) : randomBytes(size)
        let receipt = try await log.blobs.put(content)
        #expect(receipt.info.rawSize == UInt64(size), "\(label)")
        #expect(receipt.info.chunkCount == UInt32((size + Self.mebibyte - 1) / Self.mebibyte), "\(label)")
        #expect(receipt.info.id.hex == sha256Hex(content), "\(label)")
        #expect(!receipt.wasDuplicate)
        #expect(try log.blobs.exists(receipt.info.id))
        #expect(try log.blobs.info(receipt.info.id) == receipt.info)

        var streamed: [UInt8] = []
        var pieces = 0
        for try await piece in log.blobs.content(receipt.info.id) {
            #expect(piece.count <= Self.mebibyte)
            streamed += piece
            pieces += 1
        }
        #expect(streamed == content, "\(label)")
        #expect(pieces == Int(receipt.info.chunkCount))
    }

    @Test func randomChunksAreStoredRawAndTextShrinks() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let random = try await log.blobs.put(randomBytes(7 * Self.mebibyte / 2)).info
        // Raw storage: exactly the content, no zstd frame overhead.
        #expect(random.storedSize == random.rawSize)
        let text = try await log.blobs.put(compressibleBytes(7 * Self.mebibyte / 2)).info
        #expect(text.storedSize * 5 < text.rawSize)
        let first = try await log.perform { scope in
            try #require(
                try scope.txn.get(
                    BlobTables.open(in: scope.txn)!.chunks, BlobTables.chunkKey(upload: random.uploadId, index: 0)))
        }
        #expect(first[0] == 0)  // the raw flag
        #expect(first.count == StoredChunk.headerSize + Self.mebibyte)
    }

    @Test func sameContentTwiceIsStoredOnce() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        // Over 8 chunks, so the second upload writes temporary chunks that must be deleted again.
        let content = randomBytes(9 * Self.mebibyte + 17)
        let first = try await log.blobs.put(content)
        let second = try await log.blobs.put(content)
        #expect(second.info.id == first.info.id)
        #expect(second.wasDuplicate)
        #expect(second.info.uploadId == first.info.uploadId)
        let totals = try log.blobs.totals()
        #expect(totals == BlobTotals(count: 1, rawBytes: UInt64(content.count), storedBytes: first.info.storedSize))
        let chunks = try log.environment.read { txn in try txn.count(BlobTables.open(in: txn)!.chunks) }
        #expect(chunks == 10)
    }

    @Test func putFromFileAndAsyncSequenceAndWriteToFile() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let content = compressibleBytes(2 * Self.mebibyte + 5)
        let file = t.directory.url.appendingPathComponent("upload.bin")
        try Data(content).write(to: file)
        let fromFile = try await log.blobs.put(contentsOf: file)
        // Odd piece sizes, so chunk boundaries fall inside pieces.
        let pieces = stride(from: 0, to: content.count, by: 300_001).map {
            Array(content[$0..<min(content.count, $0 + 300_001)])
        }
        let stream = AsyncStream<[UInt8]> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        let fromSequence = try await log.blobs.put(stream)
        #expect(fromSequence.info.id == fromFile.info.id)
        #expect(fromSequence.wasDuplicate)
        let out = t.directory.url.appendingPathComponent("download.bin")
        try log.blobs.write(fromFile.info.id, to: out)
        #expect(try Data(contentsOf: out) == Data(content))
    }

    @Test(arguments: [(true, 100), (false, 100), (true, 2)])
    func damagedChunkIsReportedWithBlobAndChunk(compressible: Bool, offset: Int) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let content = compressible ? compressibleBytes(3 * Self.mebibyte) : randomBytes(3 * Self.mebibyte)
        let info = try await log.blobs.put(content).info
        try await damageChunk(log, of: info, index: 1, at: offset)
        let error = #expect(throws: StoreError.self) { try log.blobs.bytes(info.id) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("blob \(info.id.hex) chunk 1 of 3") == true, "\(error?.message ?? "")")
        // Streaming yields the good chunk before failing on the damaged one.
        var received = 0
        await #expect(throws: StoreError.self) {
            for try await _ in log.blobs.content(info.id) { received += 1 }
        }
        #expect(received == 1)
    }

    struct UploadBroke: Error {}

    @Test func aFailedUploadLeavesNoChunksBehind() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        // Nine chunks arrive (eight are committed on the way), then the sender goes away.
        let stream = AsyncThrowingStream<[UInt8], any Error> { continuation in
            for _ in 0..<9 { continuation.yield(randomBytes(Self.mebibyte)) }
            continuation.finish(throwing: UploadBroke())
        }
        await #expect(throws: UploadBroke.self) { try await log.blobs.put(stream) }
        let chunks = try log.environment.read { txn in try txn.count(BlobTables.open(in: txn)!.chunks) }
        #expect(chunks == 0)
        #expect(try log.blobs.totals() == BlobTotals())
    }

    @Test func aPutThatOutgrowsTheMapIsRetriedAfterGrowth() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.limits.initialMapSize = 1 << 20 }
        let mapBefore = log.environment.mapSize
        let content = randomBytes(7 * Self.mebibyte / 2)
        let info = try await log.blobs.put(content).info
        #expect(log.environment.mapSize > mapBefore)
        #expect(try log.blobs.bytes(info.id) == content)
    }

    @Test func unknownIdIsNotFound() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let id = try #require(BlobID(hex: String(repeating: "ab", count: 32)))
        #expect(try log.blobs.info(id) == nil)
        #expect(try log.blobs.totals() == BlobTotals())
        let error = #expect(throws: StoreError.self) { try log.blobs.bytes(id) }
        #expect(error?.code == .notFound)
        #expect(BlobID(hex: "xyz") == nil)
        #expect(BlobID(hex: id.hex) == id)
    }

    @Test func totalsAddUpOverBlobs() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let a = try await log.blobs.put(compressibleBytes(1000)).info
        let b = try await log.blobs.put(randomBytes(5000)).info
        let c = try await log.blobs.put([]).info
        let totals = try log.blobs.totals()
        #expect(totals.count == 3)
        #expect(totals.rawBytes == 6000)
        #expect(totals.storedBytes == a.storedSize + b.storedSize + c.storedSize)
        #expect(b.storedSize == 5000)
        #expect(a.storedSize < 1000)
    }
}

/// SHA-256 through swift-crypto's one-shot API, independent of the store's streaming hasher.
func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}
