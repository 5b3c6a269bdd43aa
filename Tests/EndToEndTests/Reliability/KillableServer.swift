import EventLogTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `muster serve` on a data directory the test chooses (a small file system, a directory kept across kills),
/// started with `posix_spawn` and killed with any signal; its output goes to files, so nothing blocks on a pipe.
final class KillableServer: @unchecked Sendable {
    // `child`, `base` and `generation` change only in `start` and `restart`, which the test calls from one task.
    let data: URL
    private let scratch: URL
    private(set) var child: ChildProcess
    private(set) var base: URL
    /// How many times the server was started.
    private(set) var generation = 1

    /// The server's environment; nil: this process's.
    private let environment: [String: String]?

    /// Starts `muster serve --port 0 --data DATA` and waits until it says where it listens.
    /// - Parameter environment: the server's environment (a fault injected with `LD_PRELOAD`); nil: this process's.
    init(data: URL, environment: [String: String]? = nil) async throws {
        self.data = data
        self.environment = environment
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("killable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        (child, base) = try await Self.start(
            data: data, port: 0, scratch: scratch, generation: 1, environment: environment)
    }

    deinit {
        if child.isRunning {
            child.send(SIGKILL)
            child.reap()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    var port: Int { base.port ?? 0 }

    /// What the current server wrote to stderr so far (its end).
    var stderr: String {
        let text = (try? String(contentsOf: scratch.appendingPathComponent("stderr-\(generation)"), encoding: .utf8))
        return String((text ?? "").suffix(3000))
    }

    private static func start(
        data: URL, port: Int, scratch: URL, generation: Int, environment: [String: String]?
    ) async throws -> (ChildProcess, URL) {
        let stdout = scratch.appendingPathComponent("stdout-\(generation)")
        let child = try ChildProcess(
            try MusterProcess.binary().path, ["serve", "--port", String(port), "--data", data.path],
            stdout: stdout.path, stderr: scratch.appendingPathComponent("stderr-\(generation)").path,
            environment: environment)
        var base: URL?
        try await eventually("muster serve to say where it listens", seconds: 60) {
            guard child.isRunning else {
                let stderr = try? String(
                    contentsOf: scratch.appendingPathComponent("stderr-\(generation)"), encoding: .utf8)
                throw MusterProcess.Unexpected("muster serve ended: \(stderr ?? "")")
            }
            let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                base = URL(string: String(text[range]))
            }
            return base != nil
        }
        return (child, base!)
    }

    /// Kills the server with SIGKILL, waits until it is gone and its port free, and starts it again on the same
    /// port and data directory.
    func killAndRestart() async throws {
        child.send(SIGKILL)
        let status = await child.waitForExit()
        try #require(ChildProcess.exitCode(status) == SIGKILL, "the server ended with \(status), not SIGKILL")
        let port = self.port
        try await eventually("port \(port) to be free again after the kill") { LoopbackPort.canBind(port) }
        generation += 1
        (child, _) = try await Self.start(
            data: data, port: port, scratch: scratch, generation: generation, environment: environment)
    }

    /// Stops the server with SIGTERM; its exit status.
    func stop() async -> Int32 {
        child.send(SIGTERM)
        return ChildProcess.exitCode(await child.waitForExit())
    }

    /// A plain HTTP request over a real socket; throws when no answer came (the server died mid-request).
    func send(
        _ method: String, _ path: String, token: String? = nil, json: String? = nil, body: Data? = nil,
        contentType: String? = nil
    ) async throws -> ServerProcess.Answer {
        var request = URLRequest(url: URL(string: base.absoluteString + "/" + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        } else if let body {
            request.setValue(contentType ?? "application/octet-stream", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let (answer, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return ServerProcess.Answer(status: http.statusCode, headers: headers, body: answer)
    }

    /// Logs in and returns the access token.
    func login(_ user: String, password: String) async throws -> String {
        let answer = try await send(
            "POST", "api/v1/auth/token", json: #"{"username":"\#(user)","password":"\#(password)"}"#)
        try #require(answer.status == 200, "login of \(user): \(answer.text)")
        return try #require(answer.object["accessToken"] as? String)
    }
}
