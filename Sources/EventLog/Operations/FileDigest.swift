import Crypto
import Foundation

/// SHA-256 and size of files, computed in 4 MiB pieces so a large data file never sits in memory.
enum FileDigest {
    static let pieceSize = 4 << 20

    /// The size and SHA-256 (hex) of the file at `url`.
    static func sha256(
        of url: URL, progress: @Sendable (OperationProgress) -> Void = { _ in },
        cancelled: OperationCancellation = .never
    ) throws -> (size: UInt64, sha256: String) {
        try stream(url, into: nil, phase: "checksum", progress: progress, cancelled: cancelled)
    }

    /// Copies `source` to a new file at `destination`, flushed to disk; returns the size and SHA-256
    /// of the bytes actually written, so a check of the copy needs no second read.
    static func copy(
        _ source: URL, to destination: URL, progress: @Sendable (OperationProgress) -> Void = { _ in },
        cancelled: OperationCancellation = .never
    ) throws -> (size: UInt64, sha256: String) {
        // Owner only: the copies are data files, holding password and token hashes.
        let ownerOnly: [FileAttributeKey: Any] = [.posixPermissions: Int(DataDirectory.fileMode)]
        guard FileManager.default.createFile(atPath: destination.path, contents: nil, attributes: ownerOnly) else {
            throw StoreError(.io, "cannot create \(destination.path); check that the directory is writable")
        }
        let output: FileHandle
        do {
            output = try FileHandle(forWritingTo: destination)
        } catch {
            throw StoreError(.io, "cannot write \(destination.path): \(error.localizedDescription)")
        }
        defer { try? output.close() }
        let result = try stream(source, into: output, phase: "copy", progress: progress, cancelled: cancelled)
        do {
            try output.synchronize()
        } catch {
            throw StoreError(.io, "cannot flush \(destination.path) to disk: \(error.localizedDescription)")
        }
        return result
    }

    private static func stream(
        _ url: URL, into output: FileHandle?, phase: String, progress: @Sendable (OperationProgress) -> Void,
        cancelled: OperationCancellation
    ) throws -> (size: UInt64, sha256: String) {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: url)
        } catch {
            throw StoreError(.notFound, "cannot read \(url.path): \(error.localizedDescription)")
        }
        defer { try? input.close() }
        let total = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? UInt64) ?? 0
        var hasher = SHA256()
        var size: UInt64 = 0
        do {
            while let piece = try input.read(upToCount: pieceSize), !piece.isEmpty {
                try cancelled.check()
                hasher.update(data: piece)
                try output?.write(contentsOf: piece)
                size += UInt64(piece.count)
                progress(OperationProgress(phase: phase, done: size, total: total, unit: "bytes"))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(
                .io, "cannot \(output == nil ? "read" : "copy") \(url.path): \(error.localizedDescription)")
        }
        return (size, hasher.finalize().map { String(format: "%02x", $0) }.joined())
    }
}
