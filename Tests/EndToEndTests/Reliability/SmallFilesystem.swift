import EventLogTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tmpfs of a few megabytes mounted for one test, to fill until writes fail with ENOSPC.
///
/// Mounting needs root (or CAP_SYS_ADMIN); where the machine refuses, `init` throws saying so and the test fails.
final class SmallFilesystem: Sendable {
    let mountPoint: TemporaryDirectory
    /// The filler file that ``fill()`` writes.
    var filler: URL { mountPoint.url.appendingPathComponent("filler") }

    /// Mounts a tmpfs of `megabytes` on a new temporary directory, with mount(2) itself: no child to wait for.
    init(megabytes: Int) throws {
        mountPoint = try TemporaryDirectory("tmpfs")
        guard mount("tmpfs", mountPoint.url.path, "tmpfs", 0, "size=\(megabytes)m,mode=0700") == 0 else {
            let reason = String(cString: strerror(errno))
            mountPoint.remove()
            throw FilesystemFailure(
                "mount -t tmpfs on \(mountPoint.url.path): \(reason); the full-disk tests need root or CAP_SYS_ADMIN")
        }
    }

    /// Unmounts it (detached, so a process still holding a file there does not keep it) and removes the mount
    /// point.
    func unmount() {
        umount2(mountPoint.url.path, Int32(MNT_DETACH))
        mountPoint.remove()
    }

    /// Bytes still free for an unprivileged writer.
    var available: UInt64 {
        var fs = statvfs()
        guard statvfs(mountPoint.url.path, &fs) == 0 else { return 0 }
        return UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
    }

    /// Writes the filler file until the file system refuses with ENOSPC, or until it holds `limit` bytes; the
    /// bytes it holds.
    @discardableResult
    func fill(upTo limit: Int = .max) throws -> Int {
        // Close-on-exec: a child another test spawns meanwhile would otherwise inherit the descriptor and keep the
        // filler's space taken after `free()` unlinks it.
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FilesystemFailure("open \(filler.path): errno \(errno)") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x5A, count: 4096)
        var written = 0
        while written < limit {
            let count = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
                continue
            }
            guard errno == ENOSPC else { throw FilesystemFailure("write \(filler.path): errno \(errno)") }
            return written
        }
        return written
    }

    /// Deletes the filler file: the space is free again.
    func free() throws {
        try FileManager.default.removeItem(at: filler)
    }
}

/// A mount, unmount or write on the small file system failed.
struct FilesystemFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
