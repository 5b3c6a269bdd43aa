import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A data directory held by this process: shared while an `Environment` has it open, exclusive while `restore`
/// replaces it. An advisory `flock` on the directory itself, so a restore cannot swap a directory that a server (or
/// any other command) still has open, whose writes would then go into deleted files.
///
/// The lock is on the directory's inode, not its path: a restore renames the old directory aside and the new one in,
/// so an opener that locked the old inode before the swap notices that the path names another directory now, and
/// locks that one instead. Owns a file descriptor; `release` may be called from any thread, once or more.
final class DirectoryUse: Sendable {
    private let descriptor: Int32
    private let released = Atomic<Bool>(false)
    /// The directory (device and inode) while this process holds it shared.
    private let shared = Mutex<Identity?>(nil)

    /// A directory as the file system knows it.
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// How many environments of this process hold each directory.
    private static let openHere = Mutex<[Identity: Int]>([:])

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { release() }

    /// Gives the lock up.
    func release() {
        if released.exchange(true, ordering: .acquiringAndReleasing) { return }
        if let identity = shared.withLock({ $0 }) {
            Self.openHere.withLock { counts in
                counts[identity, default: 1] -= 1
                if counts[identity] == 0 { counts[identity] = nil }
            }
        }
        close(descriptor)
    }

    /// Holds `directory` shared, for an environment opening it; refused while a restore replaces it.
    static func shared(_ directory: URL) throws -> DirectoryUse {
        // A restore that swaps the directory between our open and our lock leaves us the old one: open it again.
        for _ in 0..<8 {
            let use = try opening(directory)
            guard flock(use.descriptor, LOCK_SH | LOCK_NB) == 0 else {
                let code = errno
                guard code == EWOULDBLOCK else {
                    throw StoreError(
                        .io, "cannot lock data directory \(directory.path): \(String(cString: strerror(code)))")
                }
                throw StoreError(
                    .conflict,
                    "data directory \(directory.path) is being replaced by a restore in another process; "
                        + "open it again once the restore has finished")
            }
            if let identity = use.identity(ifStill: directory) {
                use.shared.withLock { $0 = identity }
                openHere.withLock { $0[identity, default: 0] += 1 }
                return use
            }
        }
        throw StoreError(.conflict, "data directory \(directory.path) kept being replaced while it was opened")
    }

    /// Holds `directory` exclusively, for a restore that replaces it; nil when there is no such directory. Refused
    /// naming the directory while any process has it open: one of this release (its directory lock) or of any
    /// other (LMDB's lock on `lock.mdb`, held by every process with the environment open).
    static func exclusive(_ directory: URL) throws -> DirectoryUse? {
        guard access(directory.path, F_OK) == 0 else { return nil }
        let use = try opening(directory)
        if !use.lockExclusively() {
            let code = errno
            guard code == EWOULDBLOCK else {
                throw StoreError(
                    .io, "cannot lock data directory \(directory.path): \(String(cString: strerror(code)))")
            }
            // LMDB's lock is asked about only when no environment of this process holds the directory: closing
            // this process's descriptor of lock.mdb would drop its own LMDB lock.
            let here = use.identity(ifStill: directory).map { identity in openHere.withLock { $0[identity] != nil } }
            throw inUse(directory, by: here == false ? lockFileHolder(directory) : nil)
        }
        if let holder = lockFileHolder(directory) { throw inUse(directory, by: holder) }
        return use
    }

    /// Takes the lock exclusively; false (with `errno`) when it cannot. A lock just given up may still be held for a
    /// moment: a child process forked by its holder shares the holder's descriptor until the child's exec closes
    /// it. So a refusal is tried again for a little while (a second) before it counts.
    private func lockExclusively() -> Bool {
        let deadline = ContinuousClock.now + .seconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK, ContinuousClock.now < deadline else {
                errno = code
                return false
            }
            usleep(10_000)
        }
        return true
    }

    private static func opening(_ directory: URL) throws -> DirectoryUse {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(
                .io, "cannot open data directory \(directory.path): \(String(cString: strerror(errno)))")
        }
        return DirectoryUse(descriptor: descriptor)
    }

    /// The directory this descriptor holds, when the path still names it.
    private func identity(ifStill directory: URL) -> Identity? {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, stat(directory.path, &named) == 0,
            held.st_dev == named.st_dev, held.st_ino == named.st_ino
        else { return nil }
        return Identity(device: UInt64(held.st_dev), inode: UInt64(held.st_ino))
    }

    /// The process holding LMDB's lock on the directory's `lock.mdb` (byte 0, shared by every process with the
    /// environment open), if any; 0 when one holds it but the system does not say which.
    ///
    /// Only called while no environment of this process has the directory open: closing a descriptor of
    /// `lock.mdb` drops every lock this process holds on it, LMDB's own too.
    private static func lockFileHolder(_ directory: URL) -> pid_t? {
        let lockFile = directory.appendingPathComponent(DataDirectory.lockFileName)
        let descriptor = open(lockFile.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        query.l_start = 0
        query.l_len = 1
        guard fcntl(descriptor, F_GETLK, &query) == 0, query.l_type != Int16(F_UNLCK) else { return nil }
        return query.l_pid
    }

    private static func inUse(_ directory: URL, by holder: pid_t?) -> StoreError {
        let who = holder.map { $0 > 0 ? " (process \($0))" : "" } ?? ""
        return StoreError(
            .conflict,
            "data directory \(directory.path) is open in another process\(who), such as a running server; stop the "
                + "server first, then restore again — nothing was restored")
    }
}
