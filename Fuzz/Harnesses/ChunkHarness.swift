@testable import EventLog

extension FuzzTarget {
    /// Blob chunk values (flag, CRC-32C, raw or zstd bytes) as read from a damaged data file.
    static let chunk = FuzzTarget(name: "chunk", summary: "ChunkDecompressor.decode on a stored chunk value") { input in
        guard let decompressor = try? ChunkDecompressor() else { return require(false, "no zstd context") }
        let raw: [UInt8]
        do {
            raw = try input.withUnsafeBytes { try decompressor.decode($0, what: "chunk 1 of the fuzzed blob") }
        } catch {
            return require(error is StoreError, "decode threw \(type(of: error)), not a StoreError")
        }
        require(raw.count <= BlobStore.chunkSize, "decoded \(raw.count) bytes, over a chunk's \(BlobStore.chunkSize)")
        // What decodes, stored again, reads back the same bytes.
        guard let compressor = try? ChunkCompressor(), let stored = try? compressor.encode(raw) else {
            return require(false, "a decoded chunk does not encode")
        }
        var value = [UInt8](repeating: 0, count: stored.valueSize)
        value.withUnsafeMutableBytes { stored.write(into: $0) }
        let again = try? value.withUnsafeBytes { try decompressor.decode($0, what: "chunk 1 of the re-encoded blob") }
        require(again == raw, "a re-encoded chunk decodes differently")
    }
}
