import Crypto
import Foundation

/// One put in progress: cuts the content into chunks, compresses and hashes them on the caller's
/// thread and hands finished chunks to the writer a few at a time under a random upload id.
///
/// Used by the one task running the put; not shared.
final class BlobUpload {
    private let log: EventLog
    private let compressor: ChunkCompressor
    private var hasher = SHA256()
    private let uploadId: [UInt8] = withUnsafeBytes(of: UUID().uuid) { Array($0) }
    private var buffer: [UInt8] = []
    private var pending: [(index: UInt32, chunk: StoredChunk)] = []
    private var nextIndex: UInt32 = 0
    private var rawSize: UInt64 = 0
    private var storedSize: UInt64 = 0
    /// True once some chunks were committed: they must then be deleted if the put fails.
    private var wroteChunks = false

    init(log: EventLog) throws {
        self.log = log
        compressor = try ChunkCompressor()
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
        do {
            if !buffer.isEmpty { try await seal(flushing: false) }
            let info = BlobInfo(
                id: BlobID(digest: hasher.finalize()), rawSize: rawSize, storedSize: storedSize,
                chunkCount: nextIndex, uploadId: uploadId)
            let chunks = pending
            let uploadId = self.uploadId
            let metaTable = log.core.tables.meta
            // Small blobs (the usual photo or voice note) take exactly one transaction.
            return try await log.perform { scope in
                let tables = try BlobTables.open(in: scope.txn)!
                if let existing = try tables.info(info.id, in: scope.txn) {
                    for index in 0..<info.chunkCount {
                        try scope.txn.delete(tables.chunks, BlobTables.chunkKey(upload: uploadId, index: index))
                    }
                    return BlobStore.Receipt(info: existing, wasDuplicate: true)
                }
                try Self.write(chunks, upload: uploadId, tables, scope.txn)
                try scope.txn.put(tables.blobs, info.id.bytes, info.encoded())
                try BlobTables.add(info, toTotalsIn: Meta(table: metaTable), in: scope.txn)
                return BlobStore.Receipt(info: info, wasDuplicate: false)
            }
        } catch {
            await discard()
            throw error
        }
    }

    /// Deletes the chunks committed so far, after a failed or abandoned put. Best effort: a chunk
    /// left behind belongs to no blob and is reported by `muster verify`, never read.
    func discard() async {
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

    /// Compresses and hashes the buffered chunk; writes the pending chunks when enough are ready.
    private func seal(flushing: Bool = true) async throws {
        buffer.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let chunk = try compressor.encode(buffer)
        pending.append((nextIndex, chunk))
        nextIndex += 1
        rawSize += UInt64(buffer.count)
        storedSize += UInt64(chunk.payload.count)
        buffer.removeAll(keepingCapacity: true)
        guard flushing, pending.count >= BlobStore.chunksPerTransaction else { return }
        let chunks = pending
        let uploadId = self.uploadId
        // Set before the await: if the perform fails, `discard` deletes whatever did commit (maybe nothing).
        wroteChunks = true
        try await log.perform { scope in
            try Self.write(chunks, upload: uploadId, BlobTables.open(in: scope.txn)!, scope.txn)
        }
        pending.removeAll(keepingCapacity: true)
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
