import Foundation

/// A child process run to completion with its output captured (stdout and stderr interleaved).
struct ExternalCommand {
    var executable: String
    var arguments: [String]
    /// Run as this user through `runuser` (the caller is root); nil runs as the caller.
    var user: String?

    init(_ executable: String, _ arguments: [String], as user: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.user = user
    }

    /// What the command printed and how it ended.
    struct Outcome {
        var status: Int32
        var output: String
        var seconds: Double
    }

    /// Runs the command and waits for it. Output goes through a file, never a pipe, so a daemon the
    /// command leaves behind cannot hold the reader open. Spawned with posix_spawn and reaped with
    /// waitpid: Foundation's `Process.waitUntilExit` can miss the exit of a child that leaves a
    /// daemon behind (seen with `runuser … pg_ctl start`).
    @discardableResult
    func run(check: Bool = true) throws -> Outcome {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-cmd-\(UUID().uuidString.prefix(8)).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let fd = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError.command("cannot create \(log.path): errno \(errno)") }
        defer { close(fd) }
        let argv = user.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] } ?? [executable]
        let start = ContinuousClock.now
        let status = try Self.spawnAndWait(argv + arguments, output: fd)
        let elapsed = seconds(since: start)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let outcome = Outcome(status: status, output: output, seconds: elapsed)
        if check && outcome.status != 0 {
            let shown = ([executable] + arguments).joined(separator: " ")
            throw BenchError.command("`\(shown)` exited with \(outcome.status): \(output.suffix(600))")
        }
        return outcome
    }

    /// Starts `arguments[0]` with stdout and stderr on `output`, stdin on /dev/null and no other
    /// descriptor of ours, and waits for it. Returns the exit status, or 128 + signal.
    private static func spawnAndWait(_ arguments: [String], output: Int32) throws -> Int32 {
        let pid = try Spawn.start(arguments, stdout: output, stderr: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchError.command("waitpid(\(arguments[0])) failed: errno \(errno)") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The first executable named `name` on PATH or in `directories`, searched in that order.
    static func find(_ name: String, in directories: [String] = []) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(
            String.init)
        for directory in directories + path {
            let candidate = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
