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
    /// LMDB writes the copy into a pipe; this thread writes what comes out into the file and another hashes it on the
    /// way, so the copy is read once. `cancelled` is looked at after every piece: once it holds, the pipe is closed, LMDB's
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
        #if os(Linux)
            // A pipe of LMDB's write size (1 MiB; the default is 64 KiB): each of its writes is one read here, not 16.
            // Glibc's module has no F_SETPIPE_SZ; a system with a lower pipe-max-size keeps the default.
            _ = fcntl(writing, 1031 /* F_SETPIPE_SZ */, 1 << 20)
        #endif
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

        let hasher = PieceHasher()
        defer { hasher.close() }
        var size: UInt64 = 0
        var flushed: UInt64 = 0
        do {
            while true {
                let buffer = hasher.nextBuffer()
                var count: Int
                repeat { count = readDescriptor(reading, into: buffer) } while count < 0 && errno == EINTR
                guard count >= 0 else { throw StoreError(.io, "cannot copy: \(String(cString: strerror(errno)))") }
                if count == 0 { break }
                let piece = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                try Self.writeAll(piece, to: output, path: file.path)
                hasher.hash(piece)
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
        return (size, hasher.finish())
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

/// The SHA-256 of the copy, computed on a thread of its own while the next pieces are read and written (hashing on
/// the thread that writes took about a third of the copy's time). The pieces are read into a few buffers in turn; a
/// buffer is handed out again only once its piece is hashed.
private final class PieceHasher: @unchecked Sendable {
    // `hasher` is touched on `queue` only; `buffers` are written by the copying thread and read on `queue`, one
    // buffer by one side at a time (the semaphore hands a buffer out only after its hash ran).
    private var hasher = SHA256()
    private let queue = DispatchQueue(label: "muster-backup-hash")
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let free: DispatchSemaphore
    private var next = 0

    init(buffers count: Int = 4, size: Int = 1 << 20) {
        buffers = (0..<count).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: Int(getpagesize()))
        }
        // Made at 0 and signalled once a buffer: libdispatch traps when a semaphore goes away below the value it
        // was made with, which this one does (the last `nextBuffer()`, for the read that finds the end, keeps one).
        free = DispatchSemaphore(value: 0)
        for _ in 0..<count { free.signal() }
    }

    /// A buffer to read the next piece into; waits while every buffer's piece is still being hashed.
    func nextBuffer() -> UnsafeMutableRawBufferPointer {
        free.wait()
        defer { next = (next + 1) % buffers.count }
        return buffers[next]
    }

    /// Hashes `piece` (of the buffer `nextBuffer()` gave last) after the pieces before it.
    func hash(_ piece: UnsafeRawBufferPointer) {
        let piece = SendablePiece(bytes: piece)
        queue.async { [self] in
            hasher.update(bufferPointer: piece.bytes)
            free.signal()
        }
    }

    /// The hash of every piece, as hex.
    func finish() -> String {
        queue.sync { hasher.finalize().map { String(format: "%02x", $0) }.joined() }
    }

    /// Waits for the hashes under way and lets the buffers go.
    func close() {
        queue.sync {}
        for buffer in buffers { buffer.deallocate() }
    }

    private struct SendablePiece: @unchecked Sendable { let bytes: UnsafeRawBufferPointer }
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
