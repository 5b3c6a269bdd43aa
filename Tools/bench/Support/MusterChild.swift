import Foundation

/// `muster serve` as a child process on a free loopback port: its own pid, so its memory, descriptors and threads
/// can be read from /proc while the benchmark loads it from outside.
final class MusterChild: Sendable {
    /// The server's pid.
    let pid: pid_t
    /// Where it listens, `http://127.0.0.1:PORT`.
    let base: String
    /// The port of `base`.
    let port: Int
    /// Its standard error (the server's log), kept for when it fails.
    let logFile: URL

    private init(pid: pid_t, base: String, port: Int, logFile: URL) {
        self.pid = pid
        self.base = base
        self.port = port
        self.logFile = logFile
    }

    /// The `muster` executable built next to this benchmark (`swift build --product muster`, same configuration).
    static func executable() throws -> String {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let muster = me.deletingLastPathComponent().appendingPathComponent("muster").path
        guard FileManager.default.isExecutableFile(atPath: muster) else {
            throw BenchError.command(
                "no muster executable at \(muster); build it beside bench: swift build [-c release] --product muster")
        }
        return muster
    }

    /// Starts `muster serve --port 0 --json` with `arguments` and waits until it prints where it listens.
    static func start(_ arguments: [String], logFile: URL) async throws -> MusterChild {
        let muster = try executable()
        let (pid, stdout) = try spawn(
            [muster, "serve", "--host", "127.0.0.1", "--port", "0", "--json"] + arguments,
            logFile: logFile)
        let line = try await onThread("muster-stdout") { () throws -> String in
            defer { close(stdout) }
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let n = read(stdout, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 || byte == UInt8(ascii: "\n") { break }
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        struct Listening: Decodable { var listening: String }
        guard let listening = try? JSONDecoder().decode(Listening.self, from: Data(line.utf8)),
            let port = URL(string: listening.listening)?.port
        else {
            _ = Foundation.kill(pid, SIGKILL)
            _ = try? await wait(pid)
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            throw BenchError.command(
                "muster serve did not start (printed \(line.debugDescription)): \(log.suffix(800))")
        }
        return MusterChild(pid: pid, base: listening.listening, port: port, logFile: logFile)
    }

    /// SIGTERM, then waits for the exit (a graceful stop: requests finish, streams end). Returns the exit status.
    @discardableResult
    func stop() async throws -> Int32 {
        _ = Foundation.kill(pid, SIGTERM)
        return try await Self.wait(pid)
    }

    /// Ends a server that must not outlive a failed run.
    func forceStop() async {
        _ = Foundation.kill(pid, SIGKILL)
        _ = try? await Self.wait(pid)
    }

    private static func wait(_ pid: pid_t) async throws -> Int32 {
        try await onThread("muster-wait") {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw BenchError.command("waitpid(muster) failed: errno \(errno)") }
            }
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
        }
    }

    /// posix_spawn with stdin on /dev/null, stdout on a pipe (returned), stderr on `logFile`.
    private static func spawn(_ arguments: [String], logFile: URL) throws -> (pid_t, Int32) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BenchError.command("pipe failed: errno \(errno)") }
        // Our end must not reach other children (the write end is closed once the server has its copy).
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        let log = open(logFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard log >= 0 else { throw BenchError.command("cannot create \(logFile.path): errno \(errno)") }
        defer {
            close(log)
            close(pipeEnds[1])
        }
        do {
            let pid = try Spawn.start(arguments, stdout: pipeEnds[1], stderr: log, closing: [pipeEnds[0]])
            return (pid, pipeEnds[0])
        } catch {
            close(pipeEnds[0])
            throw error
        }
    }
}
