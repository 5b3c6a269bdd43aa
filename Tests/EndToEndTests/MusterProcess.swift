import EventLogTesting
import Foundation
import Testing

/// Runs the built `muster` binary as a user would: arguments, stdin, stdout, stderr and exit status.
///
/// The binary is found by `BuiltProduct` (next to the test runner, or in `$MUSTER_BIN_DIR`).
enum MusterProcess {
    /// What a finished run left behind.
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        /// For a failed run against a server: whether it still runs, and the end of its stderr.
        var server: String?

        /// stdout split into its non-empty lines.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// stdout parsed as one JSON object.
        func json() throws -> [String: Any] {
            let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let object = value as? [String: Any] else {
                throw Unexpected("stdout is not a JSON object: \(stdout)")
            }
            return object
        }

        /// Each stdout line parsed as a JSON object.
        func jsonLines() throws -> [[String: Any]] {
            try lines.map { line in
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    throw Unexpected("not a JSON object: \(line)")
                }
                return object
            }
        }

        var description: String {
            "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" + (server.map { "\nserver: \($0)" } ?? "")
        }
    }

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The `muster` executable under test.
    static func binary() throws -> URL { try BuiltProduct.url("muster") }

    /// Runs `muster arguments…` to completion with `stdin` (a string or a file) as its input, in `environment`
    /// (nil: the test's own). `launcher` is a command the binary is started through (such as `setpriv …`). A run
    /// still going after `timeout` seconds is killed, so a hang fails the test instead of blocking the suite.
    static func run(
        _ arguments: [String], stdin: String = "", stdinFile: URL? = nil, environment: [String: String]? = nil,
        launcher: [String] = [], timeout: Double = 300
    ) async throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("muster-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Files rather than pipes: no pipe buffer to fill and deadlock on, whatever the output size.
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = stdinFile ?? scratch.appendingPathComponent("stdin")
        if stdinFile == nil { try Data(stdin.utf8).write(to: inURL) }
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        // posix_spawn (`ChildProcess`), not Foundation's `Process`: its `run()` crashed the test process twice in
        // full runs (SIGSEGV in a memmove inside it, with other runs starting at the same time).
        let muster = try binary().path
        let executable = launcher.first ?? muster
        let all = launcher.isEmpty ? arguments : launcher.dropFirst() + [muster] + arguments
        let process = try ChildProcess(
            executable, Array(all), stdin: inURL.path, stdout: outURL.path, stderr: errURL.path,
            environment: environment)
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { process.send(SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let status = ChildProcess.exitCode(await process.waitForExit())
        watchdog.cancel()
        return Outcome(
            status: status, stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// A running `muster` whose stdout is read line by line (for `--follow`).
    final class Running: @unchecked Sendable {
        // `pending` is touched only by `nextLine`, which callers do not run concurrently.
        let process = Process()
        private let stdout = Pipe()
        /// stderr goes to a file: a pipe nobody reads would fill and stop a chatty server.
        let stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "muster-stderr-\(UUID().uuidString)")
        private var pending: [UInt8] = []

        init(_ arguments: [String], environment: [String: String]? = nil) throws {
            process.executableURL = try MusterProcess.binary()
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = stdout
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            try process.run()
        }

        /// What the process wrote to stderr so far.
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// Whether the process still runs (or how it ended), and the last `characters` of its stderr: what a
        /// failure against it should say.
        func state(characters: Int = 3000) -> String {
            let state =
                process.isRunning
                ? "pid \(process.processIdentifier) still running"
                : "exited with status \(process.terminationStatus)"
            return "\(state); its stderr ends with: " + String(stderr.suffix(characters))
        }

        /// The next line of stdout, or nil once it is closed. Blocks on a thread of its own (never dispatch's global
        /// queues, which carry Swift's cooperative pool), reading with `read(2)`: Foundation's
        /// `FileHandle.availableData` traps when a signal interrupts it (EINTR), and the tests that SIGKILL servers
        /// send this process SIGCHLD — it killed a whole fresh-clone run.
        func nextLine() async -> String? {
            let descriptor = stdout.fileHandleForReading.fileDescriptor
            return await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while true {
                        if let newline = self.pending.firstIndex(of: 0x0A) {
                            let line = String(decoding: self.pending[..<newline], as: UTF8.self)
                            self.pending.removeSubrange(...newline)
                            continuation.resume(returning: line)
                            return
                        }
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count < 0, errno == EINTR { continue }
                        guard count > 0 else {
                            continuation.resume(returning: nil)
                            return
                        }
                        self.pending += buffer[..<count]
                    }
                }
            }
        }

        /// Reads lines until one satisfies `predicate`; nil when stdout closed first. A line that never
        /// comes fails the test instead of hanging it: after `timeout` the process is killed, which
        /// closes stdout.
        func waitForLine(timeout: Double = 60, where predicate: (String) -> Bool) async -> String? {
            let watchdog = DispatchWorkItem { [process] in
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
            defer { watchdog.cancel() }
            while let line = await nextLine() {
                if predicate(line) { return line }
            }
            return nil
        }

        /// Sends `signal` (SIGTERM by default) and waits for the exit; returns the exit status.
        func stop(with signal: Int32 = SIGTERM) async -> Int32 {
            kill(process.processIdentifier, signal)
            let process = process
            return await onOwnThread {
                process.waitUntilExit()
                return process.terminationStatus
            }
        }

        /// Kills the process if a test failed before terminating it.
        deinit {
            if process.isRunning { process.interrupt() }
            try? FileManager.default.removeItem(at: stderrURL)
        }
    }
}
