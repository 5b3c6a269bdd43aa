import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Servers outliving the run that started them.
///
/// A server stops with `stop(server:)`, `stopAll()` or, at the latest, when its `NATSCluster` is released. A test run
/// killed from outside (a timeout, an interrupted `swift test`) runs none of them, and its servers went on listening.
/// Each cluster's directory names the process that owns it (`owner`) and each server's process (`s1.pid`…); a new
/// cluster first kills those whose owner is gone, and removes their files.
extension NATSCluster {
    static let directoryPrefix = "nats-cluster-"

    /// Records this process as the owner of the servers in `directory`, and `pid` as `server`'s process.
    static func recordOwner(of directory: URL, server: String, pid: pid_t) throws {
        try "\(getpid())\n".write(to: directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        try "\(pid)\n".write(to: directory.appendingPathComponent("\(server).pid"), atomically: true, encoding: .utf8)
    }

    /// Kills the servers, and removes the directories, of runs that no longer exist.
    static func stopOrphans() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(directoryPrefix) {
            let directory = temporary.appendingPathComponent(name, isDirectory: true)
            guard let owner = processID(in: directory, "owner"), !isAlive(owner) else { continue }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files where file.hasSuffix(".pid") {
                if let server = processID(in: directory, file), isNATSServer(server, configuredIn: directory) {
                    _ = Glibc.kill(server, SIGKILL)
                }
            }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func processID(in directory: URL, _ file: String) -> pid_t? {
        let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        return text.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func isAlive(_ pid: pid_t) -> Bool {
        Glibc.kill(pid, 0) == 0 || errno == EPERM
    }

    /// True when `pid` is still a nats-server started with a configuration in this directory (not a reused id).
    private static func isNATSServer(_ pid: pid_t, configuredIn directory: URL) -> Bool {
        guard let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else {
            return false
        }
        let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.first == executable && arguments.contains { $0.hasPrefix(directory.path) }
    }
}
