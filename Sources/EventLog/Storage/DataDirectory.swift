import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks and file modes of a data directory, done before LMDB opens (and may create or map) anything.
///
/// A data directory holds password hashes, token hashes and push tokens, so it is its owner's only: the
/// directory 0700, its files 0600.
enum DataDirectory {
    static let dataFileName = "data.mdb"
    static let lockFileName = "lock.mdb"
    /// The mode LMDB creates the data and lock files with.
    static let fileMode: mode_t = 0o600

    /// Checks `directory` before opening it: a directory (created, owner only, when missing and not
    /// `readOnly`), writable unless `readOnly`, with a data file that looks whole. Throws a one-line
    /// `StoreError` naming the directory, having written nothing.
    static func prepare(_ directory: URL, readOnly: Bool) throws {
        var status = stat()
        guard stat(directory.path, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw failure(directory, code) }
            if readOnly { throw noData(directory) }
            try create(directory)
            return
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(
                .notDataDirectory,
                "\(directory.path) is a file, not a data directory; give --data a directory (a new one is created)")
        }
        let dataFile = directory.appendingPathComponent(dataFileName)
        var dataStatus = stat()
        if stat(dataFile.path, &dataStatus) == 0 {
            guard dataStatus.st_mode & S_IFMT == S_IFREG else {
                throw StoreError(
                    .notDataDirectory,
                    "\(directory.path) is not a data directory: its data.mdb is not a file; give --data a Muster data directory"
                )
            }
            if !readOnly { try requireWritable(directory) }
            _ = try DataFileHeader.read(dataFile, of: directory)
        } else if readOnly {
            throw noData(directory)
        } else {
            try requireWritable(directory)
        }
    }

    /// Removes the group and other bits from the directory and its LMDB files; true when any had them.
    /// A directory the process cannot change (someone else's) is left as it is.
    static func tighten(_ directory: URL) -> Bool {
        var tightened = false
        let items =
            [(directory, mode_t(0o700))]
            + [dataFileName, lockFileName].map {
                (directory.appendingPathComponent($0), fileMode)
            }
        for (url, allowed) in items {
            var status = stat()
            guard stat(url.path, &status) == 0 else { continue }
            let mode = status.st_mode & 0o7777
            if mode & ~allowed != 0, chmod(url.path, mode & allowed) == 0 { tightened = true }
        }
        return tightened
    }

    /// Creates `directory` for the owner only; its parents as the umask says.
    static func create(_ directory: URL, purpose: String = "data directory") throws {
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.io, "cannot create \(purpose) \(directory.path): \(error.localizedDescription)")
        }
        guard mkdir(directory.path, 0o700) == 0 || errno == EEXIST else {
            throw StoreError(.io, "cannot create \(purpose) \(directory.path): \(String(cString: strerror(errno)))")
        }
    }

    /// LMDB needs to write the data file and the lock file; say so before it creates anything.
    private static func requireWritable(_ directory: URL) throws {
        let checks = [
            (directory, W_OK | X_OK), (directory.appendingPathComponent(dataFileName), R_OK | W_OK),
            (directory.appendingPathComponent(lockFileName), R_OK | W_OK),
        ]
        for (url, mode) in checks where access(url.path, F_OK) == 0 || url == directory {
            guard access(url.path, mode) == 0 else {
                let reason = String(cString: strerror(errno))
                let item = url == directory ? "" : " (\(url.lastPathComponent))"
                throw StoreError(
                    .io,
                    "data directory \(directory.path) is not writable by this user\(item): \(reason); run muster as the directory's owner, or make it writable"
                )
            }
        }
    }

    private static func noData(_ directory: URL) -> StoreError {
        StoreError(.notFound, "no Muster data in \(directory.path) (data.mdb missing); check --data")
    }

    private static func failure(_ directory: URL, _ code: Int32) -> StoreError {
        StoreError(.io, "cannot open data directory \(directory.path): \(String(cString: strerror(code)))")
    }
}
