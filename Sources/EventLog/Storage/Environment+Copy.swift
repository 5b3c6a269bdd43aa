import CLMDB
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Environment {
    /// Writes a compacted, consistent copy of the environment to the new file `file` (owner only), flushed to disk,
    /// and returns its size and SHA-256 (hex).
    ///
    /// LMDB writes the copy into a pipe; this thread writes what comes out into the file and hashes it on the way, so
    /// the copy is read once. `cancelled` is looked at after every piece: once it holds, the pipe is closed, LMDB's
    /// next write into it fails and its copy stops — a backup interrupted stops at once, not when the copy is done.
    ///
    /// The caller holds the environment open (and its map from growing) meanwhile.
    func copyCompactedThroughPipe(into file: URL, cancelled: OperationCancellation) throws -> (
        size: UInt64, sha256: String
    ) {
        let output = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, DataDirectory.fileMode)
        guard output >= 0 else {
            throw StoreError(.io, "cannot create \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { closeDescriptor(output) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw StoreError(.io, "cannot copy: pipe: \(String(cString: strerror(errno)))") }
        let (reading, writing) = (ends[0], ends[1])
        // Not inherited by a process started meanwhile (a test's peer): one holding the writing end would keep this
        // side from ever seeing the copy's end. (Glibc's module has no pipe2.)
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
        var readingOpen = true
        defer { if readingOpen { closeDescriptor(reading) } }

        let copier = LMDBCopier(environment: raw, descriptor: writing)
        copier.start()
        // Whatever happens here, LMDB's copy has ended when this returns: closing the pipe's end stops it.
        func stopCopy() {
            if readingOpen {
                closeDescriptor(reading)
                readingOpen = false
            }
            copier.wait()
        }

        var hasher = SHA256()
        var size: UInt64 = 0
        var flushed: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        do {
            while true {
                let count = buffer.withUnsafeMutableBytes { readDescriptor(reading, into: $0) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw StoreError(.io, "cannot copy: \(String(cString: strerror(errno)))") }
                if count == 0 { break }
                try buffer.withUnsafeBytes { bytes in
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[..<count])
                    hasher.update(bufferPointer: piece)
                    try Self.writeAll(piece, to: output, path: file.path)
                }
                size += UInt64(count)
                // Flushed as it goes: a whole copy left for one flush at the end would queue the writers' own
                // commits behind it (a 1 GB backup held an append's acknowledgement 150 ms).
                if size - flushed >= Self.flushEvery {
                    try Self.flush(output, path: file.path)
                    flushed = size
                }
                try cancelled.check()
            }
        } catch {
            stopCopy()
            throw error
        }
        stopCopy()
        try check(copier.status, "mdb_env_copyfd2(\(file.path))")
        try Self.flush(output, path: file.path)
        return (size, hasher.finalize().map { String(format: "%02x", $0) }.joined())
    }

    /// How much of the copy is written before it is flushed to disk.
    static let flushEvery: UInt64 = 16 << 20

    private static func flush(_ descriptor: Int32, path: String) throws {
        guard fsync(descriptor) == 0 else {
            throw StoreError(.io, "cannot flush \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = writeDescriptor(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw StoreError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

/// LMDB's compacting copy into a pipe, on a thread of its own, with SIGPIPE blocked there (LMDB's own writer thread
/// inherits the mask): a reader that closed its end makes LMDB's write fail with EPIPE instead of ending the process.
private final class LMDBCopier: @unchecked Sendable {
    // The thread writes `status` before signalling `done`; `wait()` reads it after.
    private let environment: OpaquePointer
    private let descriptor: Int32
    private let done = DispatchSemaphore(value: 0)
    private(set) var status: Int32 = 0

    init(environment: OpaquePointer, descriptor: Int32) {
        self.environment = environment
        self.descriptor = descriptor
    }

    func start() {
        let thread = Thread { [self] in
            #if canImport(Glibc)
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
            #elseif canImport(Darwin)
                // Darwin's signal-set calls are macros Swift cannot call; the pipe itself can be told instead.
                _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
            #endif
            status = mdb_env_copyfd2(environment, descriptor, UInt32(MDB_CP_COMPACT))
            close(descriptor)  // the end of the copy for the reader
            done.signal()
        }
        thread.name = "muster-backup-copy"
        thread.start()
    }

    /// Returns once the copy has ended.
    func wait() { done.wait() }
}

// The descriptor calls under names of their own: inside `Environment` (which has `close()` and `read`), the C
// functions' names are taken.
private func closeDescriptor(_ descriptor: Int32) { close(descriptor) }

private func readDescriptor(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}
