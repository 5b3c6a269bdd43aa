import CZstd
import Foundation

/// libzstd in process, one 1 MiB chunk at a time: what a blob store calling the library can reach.
enum ZstdLibrary {
    static let chunkSize = 1 << 20

    /// Compresses `data` chunk by chunk at `level` with one reused context. Returns MB/s of input and
    /// the compressed size.
    static func compress(_ data: [UInt8], level: Int32 = 3) throws -> (megabytesPerSecond: Double, compressed: Int) {
        guard let context = ZSTD_createCCtx() else { throw BenchError.zstd("ZSTD_createCCtx returned nil") }
        defer { ZSTD_freeCCtx(context) }
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(chunkSize))
        var compressed = 0
        let start = ContinuousClock.now
        try data.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { out in
                var offset = 0
                while offset < input.count {
                    let length = min(chunkSize, input.count - offset)
                    let written = ZSTD_compressCCtx(
                        context, out.baseAddress, out.count, input.baseAddress! + offset, length, level)
                    if ZSTD_isError(written) != 0 {
                        throw BenchError.zstd("ZSTD_compressCCtx: \(String(cString: ZSTD_getErrorName(written)))")
                    }
                    compressed += written
                    offset += length
                }
            }
        }
        return (Double(data.count) / 1e6 / seconds(since: start), compressed)
    }

    /// Compresses then decompresses every chunk, timing only the decompression. Returns MB/s of output.
    static func decompress(_ data: [UInt8], level: Int32 = 3) throws -> Double {
        var frames: [[UInt8]] = []
        var offset = 0
        while offset < data.count {
            let chunk = Array(data[offset..<min(data.count, offset + chunkSize)])
            var frame = [UInt8](repeating: 0, count: ZSTD_compressBound(chunk.count))
            let written = ZSTD_compress(&frame, frame.count, chunk, chunk.count, level)
            if ZSTD_isError(written) != 0 { throw BenchError.zstd("ZSTD_compress failed") }
            frames.append(Array(frame.prefix(written)))
            offset += chunk.count
        }
        guard let context = ZSTD_createDCtx() else { throw BenchError.zstd("ZSTD_createDCtx returned nil") }
        defer { ZSTD_freeDCtx(context) }
        var output = [UInt8](repeating: 0, count: chunkSize)
        var produced = 0
        let start = ContinuousClock.now
        for frame in frames {
            let n = ZSTD_decompressDCtx(context, &output, output.count, frame, frame.count)
            if ZSTD_isError(n) != 0 { throw BenchError.zstd("ZSTD_decompressDCtx failed") }
            produced += n
        }
        return Double(produced) / 1e6 / seconds(since: start)
    }

    /// "1.5.4".
    static var version: String { String(cString: ZSTD_versionString()) }
}
