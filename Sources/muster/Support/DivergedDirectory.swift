import EventLog
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A node's data directory whose log cannot follow its namespace's stream (it holds events the cluster never took),
/// moved aside — never deleted — so that the node rebuilds the namespace from the stream: `DIR` becomes
/// `DIR.diverged-20261127T134512Z` beside it, kept for an operator, and `DIR` starts empty. The node's own secrets
/// (`secrets/`: push keys, never replicated) are copied into the new `DIR`.
enum DivergedDirectory {
    /// Moves `directory` aside and makes it again, empty but for its secrets; returns where it went.
    static func setAside(_ directory: URL, now: Date = Date()) throws -> URL {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = format.string(from: now)
        let aside = directory.deletingLastPathComponent().appendingPathComponent(
            directory.lastPathComponent + ".diverged-" + stamp)
        guard rename(directory.path, aside.path) == 0 else {
            let why = String(cString: strerror(errno))
            throw CommandFailure.failed(
                "the data directory \(directory.path) holds events the cluster's stream does not, and cannot be moved "
                    + "aside to \(aside.path) (\(why)): move it away yourself and start the node on an empty "
                    + "directory, which it rebuilds from the stream")
        }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let secrets = aside.appendingPathComponent(SecretStore.directoryName)
        if FileManager.default.fileExists(atPath: secrets.path) {
            try FileManager.default.copyItem(
                at: secrets, to: directory.appendingPathComponent(SecretStore.directoryName))
        }
        return aside
    }
}
