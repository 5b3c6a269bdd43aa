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
    /// command leaves behind cannot hold the reader open.
    @discardableResult
    func run(check: Bool = true) throws -> Outcome {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-cmd-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user, "--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let start = ContinuousClock.now
        do {
            try process.run()
        } catch {
            try? handle.close()
            throw BenchError.command("cannot start \(executable): \(error)")
        }
        process.waitUntilExit()
        let elapsed = seconds(since: start)
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let outcome = Outcome(status: process.terminationStatus, output: output, seconds: elapsed)
        if check && outcome.status != 0 {
            let shown = ([executable] + arguments).joined(separator: " ")
            throw BenchError.command("`\(shown)` exited with \(outcome.status): \(output.suffix(600))")
        }
        return outcome
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
