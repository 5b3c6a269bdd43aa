import Crypto
import Foundation

/// Reads one blob chunk by chunk, each in its own short read transaction (a blob's chunks never
/// change once its metadata exists), checking every chunk and finally the SHA-256 of the whole.
///
/// `@unchecked Sendable` so an `AsyncThrowingStream` can pull from it: the stream calls `next`
/// once at a time, so its state is never touched concurrently.
final class BlobReader: @unchecked Sendable {
    private let store: BlobStore
    private let id: BlobID
    private var info: BlobInfo?
    private var index: UInt32 = 0
    private var hasher = SHA256()
    private var rawSize: UInt64 = 0
    private var decompressor: ChunkDecompressor?
    private var done = false

    init(store: BlobStore, id: BlobID) {
        self.store = store
        self.id = id
    }

    /// The next chunk's raw bytes; nil after the last one, once the whole content checked out.
    func next() throws -> [UInt8]? {
        if done { return nil }
        let info = try self.info ?? start()
        guard index < info.chunkCount else {
            done = true
            try finish(info)
            return nil
        }
        let decompressor = try self.decompressor ?? ChunkDecompressor()
        self.decompressor = decompressor
        let index = self.index
        let id = self.id
        let raw = try store.environment.read { txn -> [UInt8] in
            guard let tables = try BlobTables.open(in: txn) else { throw Self.missing(id, index, info) }
            return try BlobTables.chunkKey(upload: info.uploadId, index: index).withUnsafeBytes { key in
                guard let value = try txn.get(tables.chunks, key) else { throw Self.missing(id, index, info) }
                return try decompressor.decode(value, what: "blob \(id) chunk \(index) of \(info.chunkCount)")
            }
        }
        raw.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        rawSize += UInt64(raw.count)
        self.index += 1
        return raw
    }

    private func start() throws -> BlobInfo {
        guard let info = try store.info(id) else {
            throw StoreError(.notFound, "no blob \(id) in \(store.environment.directory.path); check the id")
        }
        self.info = info
        return info
    }

    private func finish(_ info: BlobInfo) throws {
        let digest = Array(hasher.finalize())
        guard rawSize == info.rawSize, digest == id.bytes else {
            throw StoreError(
                .corrupt,
                "blob \(id) reads back as \(rawSize) bytes with SHA-256 \(BlobID(digest: digest)) although every chunk passed its checksum; the metadata is damaged",
                remedy: .verify)
        }
    }

    private static func missing(_ id: BlobID, _ index: UInt32, _ info: BlobInfo) -> StoreError {
        StoreError(
            .corrupt,
            "blob \(id) chunk \(index) of \(info.chunkCount) is missing; the blob cannot be read — restore it from a backup"
        )
    }
}
