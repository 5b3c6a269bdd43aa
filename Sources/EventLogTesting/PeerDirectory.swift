import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary directory of a peer process a test started (a broker, a server), which names the process that owns
/// it and the peer's own processes, so peers outliving their run can be found and stopped.
///
/// A peer stops when its test stops it or, at the latest, when the value owning it is released. A test run killed from
/// outside (a timeout, an interrupted `swift test`) does neither, and its peers go on listening. Each peer's directory
/// holds `owner` (the test process) and one `NAME.pid` per peer process; `stopOrphans` kills the peers whose owner is
/// gone, and removes their files.
public enum PeerDirectory {
    /// Records this process as the owner of `directory`, and `pid` as the process `name` (`NAME.pid`).
    public static func recordOwner(of directory: URL, process name: String, pid: pid_t) throws {
        try "\(getpid())\n".write(to: directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        try "\(pid)\n".write(to: directory.appendingPathComponent("\(name).pid"), atomically: true, encoding: .utf8)
    }

    /// Kills the processes of `executable`, and removes the directories named `prefix…` in the temporary directory,
    /// of runs that no longer exist.
    public static func stopOrphans(prefix: String, executable: String) {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let directory = temporary.appendingPathComponent(name, isDirectory: true)
            guard let owner = processID(in: directory, "owner"), !isAlive(owner) else { continue }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files where file.hasSuffix(".pid") {
                if let peer = processID(in: directory, file), isRunning(peer, executable, configuredIn: directory) {
                    _ = Glibc.kill(peer, SIGKILL)
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

    /// True when `pid` is still `executable` started with a file of this directory (not a reused process id).
    private static func isRunning(_ pid: pid_t, _ executable: String, configuredIn directory: URL) -> Bool {
        guard let commandLine = ProcFile.bytes("/proc/\(pid)/cmdline") else { return false }
        let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.first == executable && arguments.contains { $0.hasPrefix(directory.path) }
    }

    /// The id of a child that ran `/bin/true` and was reaped: no process has it now (ids are not reused this soon) —
    /// the owner of a peer whose test run was killed.
    public static func exitedProcessID() throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0 else {
            throw LoopbackPort.Failure(description: "could not run /bin/true (errno \(errno))")
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return pid
    }

    /// True while `pid` is a process whose name contains `name` (one that lingers as a zombie until reaped is not
    /// running).
    public static func isRunning(_ pid: pid_t, named name: String) -> Bool {
        guard let status = ProcFile.text("/proc/\(pid)/status") else { return false }
        return status.contains(name) && !status.contains("State:\tZ")
    }

    /// The process id recorded in `directory` for `name` (`NAME.pid`).
    public static func processID(of name: String, in directory: URL) -> pid_t? {
        processID(in: directory, "\(name).pid")
    }
}
