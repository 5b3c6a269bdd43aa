import Foundation

/// Media and other large content, stored beside the log: chunked (≤ 1 MiB), zstd-compressed where
/// that helps, addressed by the SHA-256 of the content. Events refer to blobs; blobs are not events.
///
/// Compression and hashing run on the caller's thread; only the table writes go to the writer, a
/// few chunks per transaction, so a large upload never holds the writer for long.
public struct BlobStore: Sendable {
    /// Raw bytes per chunk.
    public static let chunkSize = 1 << 20
    /// Chunks written per writer transaction while an upload streams in.
    static let chunksPerTransaction = 8

    let log: EventLog

    var environment: Environment { log.core.environment }
    var meta: Meta { Meta(table: log.core.tables.meta) }

    /// What a put stored.
    public struct Receipt: Sendable, Hashable {
        /// The blob (size, chunks, id).
        public var info: BlobInfo
        /// True when the same content was stored before: nothing new was kept.
        public var wasDuplicate: Bool
    }

    // MARK: Putting

    /// Stores `bytes`; returns the blob's id and sizes.
    @discardableResult
    public func put(_ bytes: [UInt8]) async throws -> Receipt {
        let upload = try BlobUpload(log: log)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Self.chunkSize)
            try await upload.add(bytes[offset..<end])
            offset = end
        }
        return try await upload.finish()
    }

    /// Stores the content of a file, reading it a chunk at a time.
    @discardableResult
    public func put(contentsOf url: URL) async throws -> Receipt {
        try await put(contentsOf: url) { _, receipt in receipt }
    }

    /// Stores the content of a file and, in the write transaction that completes the blob, runs `then`:
    /// both are kept, or neither.
    public func put<T: Sendable>(
        contentsOf url: URL, then: @escaping @Sendable (WriteScope, Receipt) throws -> T
    ) async throws -> T {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw StoreError(.notFound, "cannot read \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        let upload = try BlobUpload(log: log)
        while true {
            let data: Data?
            do {
                data = try handle.read(upToCount: Self.chunkSize)
            } catch {
                await upload.discard()
                throw StoreError(.io, "cannot read \(url.path): \(error.localizedDescription)")
            }
            guard let data, !data.isEmpty else { break }
            try await upload.add([UInt8](data)[...])
        }
        return try await upload.finish(then: then)
    }

    /// Stores content arriving as a sequence of byte arrays of any size (an HTTP body, a pipe).
    @discardableResult
    public func put<Bytes: AsyncSequence>(_ sequence: Bytes) async throws -> Receipt where Bytes.Element == [UInt8] {
        try await put(sequence) { _, receipt in receipt }
    }

    /// Stores content arriving as a sequence of byte arrays and, in the write transaction that completes the
    /// blob, runs `then` (which appends the event naming it): both are kept, or neither. A failure or a throw
    /// from `then` leaves no chunk behind.
    public func put<Bytes: AsyncSequence, T: Sendable>(
        _ sequence: Bytes, then: @escaping @Sendable (WriteScope, Receipt) throws -> T
    ) async throws -> T where Bytes.Element == [UInt8] {
        let upload = try BlobUpload(log: log)
        do {
            for try await piece in sequence { try await upload.add(piece[...]) }
        } catch {
            await upload.discard()
            throw error
        }
        return try await upload.finish(then: then)
    }

    // MARK: Reading

    /// The sizes and chunk count of a blob, or nil when it is not stored.
    public func info(_ id: BlobID) throws -> BlobInfo? {
        try environment.read { txn in try BlobTables.open(in: txn)?.info(id, in: txn) }
    }

    /// Whether a blob with this id is stored.
    public func exists(_ id: BlobID) throws -> Bool { try info(id) != nil }

    /// Count and bytes of every blob.
    public func totals() throws -> BlobTotals {
        try environment.read { txn in try BlobTables.totals(meta: meta, in: txn) }
    }

    /// The content of a blob, chunk by chunk, each checked against its CRC-32C and the whole against
    /// the id. A damaged chunk ends the stream with `StoreError(.corrupt)` naming the blob and chunk.
    public func content(_ id: BlobID) -> AsyncThrowingStream<[UInt8], any Error> {
        let reader = BlobReader(store: self, id: id)
        return AsyncThrowingStream(unfolding: { try reader.next() })
    }

    /// The whole content of a blob, checked (for small blobs; stream large ones with `content`).
    public func bytes(_ id: BlobID) throws -> [UInt8] {
        let reader = BlobReader(store: self, id: id)
        var result: [UInt8] = []
        while let chunk = try reader.next() { result += chunk }
        return result
    }

    /// Writes the content of a blob to `handle`, checking every chunk and the final hash.
    public func write(_ id: BlobID, to handle: FileHandle) throws {
        let reader = BlobReader(store: self, id: id)
        while let chunk = try reader.next() {
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw StoreError(.io, "cannot write blob \(id): \(error.localizedDescription)")
            }
        }
    }

    /// Writes the content of a blob to a file, which appears only once the content checked out.
    public func write(_ id: BlobID, to url: URL) throws {
        let partial = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw StoreError(.io, "cannot create \(partial.path); check that the directory exists and is writable")
        }
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            try write(id, to: handle)
            try handle.synchronize()
            // rename(2) replaces an existing file atomically: readers see the old or the new content.
            guard rename(partial.path, url.path) == 0 else {
                throw StoreError(.io, "cannot move \(partial.path) to \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            if let error = error as? StoreError { throw error }
            throw StoreError(.io, "cannot write blob \(id) to \(url.path): \(error.localizedDescription)")
        }
    }
}

extension EventLog {
    /// The blobs (media) of this data directory.
    public var blobs: BlobStore { BlobStore(log: self) }
}
