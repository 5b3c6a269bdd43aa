import EventLogTesting
import Foundation
import Synchronization
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
    ///
    /// Started with `posix_spawn` (``ChildProcess``), not Foundation's `Process`: on Linux that one learns of the
    /// exit only when every copy of a socket it gives the child is closed, and a child another test started at the
    /// same moment could inherit a copy and keep it for its life — `waitUntilExit` then never returned, and the
    /// whole run hung (CI, session 17).
    final class Running: @unchecked Sendable {
        // `pending` is touched only by `nextLine`, which callers do not run concurrently.
        let child: ChildProcess
        /// The read end of the pipe that is the child's stdout (close-on-exec: no other child inherits it).
        private let stdout: Int32
        /// stderr goes to a file: a pipe nobody reads would fill and stop a chatty server.
        let stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "muster-stderr-\(UUID().uuidString)")
        private var pending: [UInt8] = []
        /// The wait status, once the exit was waited for.
        private let ended = Mutex<Int32?>(nil)

        init(_ arguments: [String], environment: [String: String]? = nil) throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw Unexpected("no pipe for muster's stdout: errno \(errno)") }
            ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            do {
                child = try ChildProcess(
                    try MusterProcess.binary().path, arguments, stdoutDescriptor: ends[1], stderr: stderrURL.path,
                    environment: environment)
            } catch {
                ends.forEach { close($0) }
                throw error
            }
            close(ends[1])
            stdout = ends[0]
        }

        /// The process id.
        var pid: pid_t { child.pid }

        /// True until the process exited.
        var isRunning: Bool { ended.withLock { $0 == nil } && child.isRunning }

        /// True when the process ended of a signal (once its exit was waited for).
        var endedBySignal: Bool { ended.withLock { $0.map { $0 & 0x7f != 0 } ?? false } }

        /// What the process wrote to stderr so far.
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// Whether the process still runs, or how it ended.
        var condition: String {
            if let status = ended.withLock({ $0 }) { return "exited with status \(ChildProcess.exitCode(status))" }
            return child.isRunning ? "pid \(pid) still running" : "pid \(pid) exited"
        }

        /// Whether the process still runs (or how it ended), and the last `characters` of its stderr: what a
        /// failure against it should say.
        func state(characters: Int = 3000) -> String {
            "\(condition); its stderr ends with: " + String(stderr.suffix(characters))
        }

        /// The next line of stdout, or nil once it is closed. Blocks on a thread of its own (never dispatch's global
        /// queues, which carry Swift's cooperative pool), reading with `read(2)`, again after EINTR: the tests that
        /// SIGKILL servers send this process SIGCHLD.
        func nextLine() async -> String? {
            let descriptor = stdout
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
            // Not `self`: dispatch keeps a cancelled item until its time, and this one would keep the process too.
            let watchdog = DispatchWorkItem { [child] in
                if child.isRunning { child.send(SIGKILL) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
            defer { watchdog.cancel() }
            while let line = await nextLine() {
                if predicate(line) { return line }
            }
            return nil
        }

        /// Sends `signal` (SIGTERM by default) and waits for the exit; returns the exit status (the signal's number
        /// when a signal ended it). A process still running `within` seconds later is killed and the test fails
        /// with the end of its stderr: a server that does not stop fails its test instead of hanging the run.
        func stop(with signal: Int32 = SIGTERM, within seconds: Double = 60) async -> Int32 {
            if let status = ended.withLock({ $0 }) { return ChildProcess.exitCode(status) }
            child.send(signal)
            let killed = Mutex(false)
            let watchdog = DispatchWorkItem { [child] in
                if child.isRunning {
                    killed.withLock { $0 = true }
                    child.send(SIGKILL)
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
            let status = await child.waitForExit()
            watchdog.cancel()
            ended.withLock { $0 = status }
            if killed.withLock({ $0 }) {
                Issue.record(
                    "muster did not exit within \(seconds) s of signal \(signal), so it was killed: \(state())")
            }
            return ChildProcess.exitCode(status)
        }

        /// Interrupts the process if a test failed before stopping it, and reaps it on a thread of its own.
        deinit {
            close(stdout)
            try? FileManager.default.removeItem(at: stderrURL)
            guard ended.withLock({ $0 == nil }) else { return }
            let child = child
            child.send(SIGINT)
            Thread.detachNewThread { child.reap() }
        }
    }
}
