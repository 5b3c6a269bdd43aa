import Crypto
import Foundation

/// One put in progress: cuts the content into chunks, hashes them in order, compresses each group of
/// chunks on all cores at once (chunks are independent) and hands the group to the writer under a
/// random upload id — while the writer commits one group, the next is being compressed.
///
/// Used by the one task running the put; not shared.
final class BlobUpload {
    private let log: EventLog
    private let compressors: [CompressorSlot]
    private var hasher = SHA256()
    private let uploadId: [UInt8] = withUnsafeBytes(of: UUID().uuid) { Array($0) }
    private var buffer: [UInt8] = []
    /// Raw chunks hashed but not yet compressed, at most one transaction's worth.
    private var raw: [(index: UInt32, bytes: [UInt8])] = []
    /// The commit of the previous group, still running while the next group is compressed.
    private var inFlight: Task<Void, any Error>?
    private var nextIndex: UInt32 = 0
    private var rawSize: UInt64 = 0
    private var storedSize: UInt64 = 0
    /// True once some chunks were committed: they must then be deleted if the put fails.
    private var wroteChunks = false

    init(log: EventLog) throws {
        self.log = log
        compressors = try (0..<min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))).map { _ in
            CompressorSlot(try ChunkCompressor())
        }
        buffer.reserveCapacity(BlobStore.chunkSize)
    }

    /// Adds the next piece of content.
    func add(_ piece: ArraySlice<UInt8>) async throws {
        do {
            var rest = piece
            while !rest.isEmpty {
                let take = min(rest.count, BlobStore.chunkSize - buffer.count)
                buffer += rest.prefix(take)
                rest = rest.dropFirst(take)
                if buffer.count == BlobStore.chunkSize { try await seal() }
            }
        } catch {
            await discard()
            throw error
        }
    }

    /// Stores the last chunk and the metadata that makes the chunks a blob (or, when the content is
    /// stored already, deletes the chunks again).
    func finish() async throws -> BlobStore.Receipt {
        try await finish { _, receipt in receipt }
    }

    /// Like `finish()`, and runs `then` in the same write transaction once the blob is stored: the event that
    /// names the blob goes in with it, and if `then` throws, nothing of the blob is kept.
    func finish<T: Sendable>(
        then: @escaping @Sendable (WriteScope, BlobStore.Receipt) throws -> T
    ) async throws -> T {
        do {
            if !buffer.isEmpty { try await seal(flushing: false) }
            let chunks = try await compress(raw)
            raw.removeAll()
            try await inFlight?.value
            inFlight = nil
            let info = BlobInfo(
                id: BlobID(digest: hasher.finalize()), rawSize: rawSize, storedSize: storedSize,
                chunkCount: nextIndex, uploadId: uploadId)
            let uploadId = self.uploadId
            let metaTable = log.core.tables.meta
            // Small blobs (the usual photo or voice note) take exactly one transaction.
            return try await log.perform { scope in
                let tables = try BlobTables.open(in: scope.txn)!
                if let existing = try tables.info(info.id, in: scope.txn) {
                    for index in 0..<info.chunkCount {
                        try scope.txn.delete(tables.chunks, BlobTables.chunkKey(upload: uploadId, index: index))
                    }
                    return try then(scope, BlobStore.Receipt(info: existing, wasDuplicate: true))
                }
                try Self.write(chunks, upload: uploadId, tables, scope.txn)
                try scope.txn.put(tables.blobs, info.id.bytes, info.encoded())
                try BlobTables.add(info, toTotalsIn: Meta(table: metaTable), in: scope.txn)
                return try then(scope, BlobStore.Receipt(info: info, wasDuplicate: false))
            }
        } catch {
            await discard()
            throw error
        }
    }

    /// Deletes the chunks committed so far, after a failed or abandoned put. Best effort: a chunk
    /// left behind belongs to no blob and is reported by `muster verify`, never read.
    func discard() async {
        _ = await inFlight?.result
        inFlight = nil
        guard wroteChunks else { return }
        wroteChunks = false
        let uploadId = self.uploadId
        let count = nextIndex
        _ = try? await log.perform { scope in
            let tables = try BlobTables.open(in: scope.txn)!
            for index in 0..<count {
                try scope.txn.delete(tables.chunks, BlobTables.chunkKey(upload: uploadId, index: index))
            }
        }
    }

    /// Hashes the buffered chunk; compresses and writes the group when a transaction's worth is ready.
    private func seal(flushing: Bool = true) async throws {
        buffer.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        raw.append((nextIndex, buffer))
        nextIndex += 1
        rawSize += UInt64(buffer.count)
        buffer = []
        buffer.reserveCapacity(BlobStore.chunkSize)
        guard flushing, raw.count >= BlobStore.chunksPerTransaction else { return }
        let chunks = try await compress(raw)
        raw.removeAll(keepingCapacity: true)
        // One commit at a time: wait for the previous group before handing over this one.
        try await inFlight?.value
        // Set before the commit: if it fails, `discard` deletes whatever did commit (maybe nothing).
        wroteChunks = true
        inFlight = Self.commit(chunks, upload: uploadId, log: log)
    }

    /// Starts the commit of a group of chunks; the caller awaits it before starting the next.
    private static func commit(
        _ chunks: [(index: UInt32, chunk: StoredChunk)], upload: [UInt8], log: EventLog
    ) -> Task<Void, any Error> {
        Task {
            try await log.perform { scope in
                try write(chunks, upload: upload, BlobTables.open(in: scope.txn)!, scope.txn)
            }
        }
    }

    /// Compresses chunks on up to `compressors.count` threads; each compressor serves one task.
    private func compress(_ chunks: [(index: UInt32, bytes: [UInt8])]) async throws -> [(
        index: UInt32, chunk: StoredChunk
    )] {
        guard !chunks.isEmpty else { return [] }
        let slots = compressors
        let encoded = try await withThrowingTaskGroup(of: [(Int, StoredChunk)].self) { group in
            for (w, slot) in slots.enumerated() where w < chunks.count {
                let mine = stride(from: w, to: chunks.count, by: slots.count).map { ($0, chunks[$0].bytes) }
                group.addTask { try mine.map { ($0.0, try slot.compressor.encode($0.1)) } }
            }
            var all: [(Int, StoredChunk)] = []
            for try await part in group { all += part }
            return all.sorted { $0.0 < $1.0 }
        }
        for (_, chunk) in encoded { storedSize += UInt64(chunk.payload.count) }
        return encoded.map { (chunks[$0.0].index, $0.1) }
    }

    private static func write(
        _ chunks: [(index: UInt32, chunk: StoredChunk)], upload: [UInt8], _ tables: BlobTables, _ txn: Transaction
    ) throws {
        for (index, chunk) in chunks {
            try BlobTables.chunkKey(upload: upload, index: index).withUnsafeBytes { key in
                try txn.put(tables.chunks, key, reserving: chunk.valueSize) { chunk.write(into: $0) }
            }
        }
    }
}

/// A compressor handed to one compression task at a time.
private final class CompressorSlot: @unchecked Sendable {
    // Used by exactly one task of `compress` at a time, which awaits them all before returning.
    let compressor: ChunkCompressor
    init(_ compressor: ChunkCompressor) { self.compressor = compressor }
}
