import CZstd

/// Compresses blob chunks with zstd level 3 through one reusable `ZSTD_CCtx`.
///
/// Owns the context; used by one put at a time on the caller's thread (never the writer thread),
/// so it is neither shared nor `Sendable`.
final class ChunkCompressor {
    /// The zstd level: fast, and most of the gain for text and raw media.
    static let level: Int32 = 3

    private let context: OpaquePointer
    private var output: [UInt8] = []

    init() throws {
        guard let context = ZSTD_createCCtx() else {
            throw StoreError(.io, "ZSTD_createCCtx failed: out of memory")
        }
        self.context = context
    }

    deinit { ZSTD_freeCCtx(context) }

    /// The chunk as it is stored: zstd when that saves at least ~2 %, otherwise the raw bytes,
    /// because already-compressed media (JPEG, MP4) only cost time to decompress for nothing.
    func encode(_ raw: [UInt8]) throws -> StoredChunk {
        let crc = CRC32C.checksum(raw)
        guard !raw.isEmpty else { return StoredChunk(isCompressed: false, crc: crc, payload: raw) }
        let bound = ZSTD_compressBound(raw.count)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let written = raw.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
                ZSTD_compressCCtx(context, dst.baseAddress, dst.count, src.baseAddress, src.count, Self.level)
            }
        }
        if ZSTD_isError(written) != 0 {
            throw StoreError(.io, "ZSTD_compressCCtx failed: \(String(cString: ZSTD_getErrorName(written)))")
        }
        if written * 100 > raw.count * 98 { return StoredChunk(isCompressed: false, crc: crc, payload: raw) }
        return StoredChunk(isCompressed: true, crc: crc, payload: Array(output[..<written]))
    }
}

/// Decompresses blob chunks through one reusable `ZSTD_DCtx`, checking each chunk's CRC-32C.
///
/// Owns the context; used by one get (or one verify) at a time, on the reading thread.
final class ChunkDecompressor {
    private let context: OpaquePointer

    init() throws {
        guard let context = ZSTD_createDCtx() else {
            throw StoreError(.io, "ZSTD_createDCtx failed: out of memory")
        }
        self.context = context
    }

    deinit { ZSTD_freeDCtx(context) }

    /// The raw bytes of a stored chunk value; throws `.corrupt` naming `what` when the frame does not
    /// decode, is larger than a chunk may be, or the bytes do not match the stored checksum.
    func decode(_ value: UnsafeRawBufferPointer, what: @autoclosure () -> String) throws -> [UInt8] {
        let chunk = try StoredChunk.Header(value, what: what())
        let payload = UnsafeRawBufferPointer(rebasing: value[StoredChunk.headerSize...])
        var raw: [UInt8]
        if chunk.isCompressed {
            let size = ZSTD_getFrameContentSize(payload.baseAddress, payload.count)
            // ZSTD_CONTENTSIZE_UNKNOWN / _ERROR are the two largest UInt64 values.
            guard size <= UInt64(BlobStore.chunkSize) else {
                throw StoreError(
                    .corrupt,
                    "\(what()) has an invalid zstd frame (content size unreadable or over 1 MiB); the blob cannot be read — restore it from a backup"
                )
            }
            raw = [UInt8](repeating: 0, count: Int(size))
            let produced = raw.withUnsafeMutableBytes { dst in
                ZSTD_decompressDCtx(context, dst.baseAddress, dst.count, payload.baseAddress, payload.count)
            }
            if ZSTD_isError(produced) != 0 || produced != Int(size) {
                let reason = ZSTD_isError(produced) != 0 ? String(cString: ZSTD_getErrorName(produced)) : "short frame"
                throw StoreError(
                    .corrupt,
                    "\(what()) does not decompress (\(reason)); the blob cannot be read — restore it from a backup")
            }
        } else {
            raw = Array(payload)
        }
        let crc = CRC32C.checksum(raw)
        if crc != chunk.crc {
            throw StoreError(
                .corrupt,
                "\(what()) fails its checksum (stored 0x\(String(chunk.crc, radix: 16)), computed 0x\(String(crc, radix: 16))); the blob cannot be read — restore it from a backup"
            )
        }
        return raw
    }
}
