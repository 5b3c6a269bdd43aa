import EventLogTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `muster serve --port 0` on a temporary data directory, with an administrator ada (password
/// "secret-ada") made by the CLI first, as an operator would.
final class ServerProcess: @unchecked Sendable {
    let directory: TemporaryDirectory
    private(set) var running: MusterProcess.Running
    let base: URL
    /// The line `muster serve` said it listens with.
    private(set) var started: String
    /// The options it was started with besides the port and data directory; a restart keeps them.
    let extraArguments: [String]

    /// - Parameters:
    ///   - administrator: make ada first (a node joining a cluster starts with an empty directory instead).
    ///   - port: the port to listen on; 0 for one the system chooses.
    ///   - prepare: what is done in the data directory before the server starts (as an operator would with the CLI).
    init(
        extraArguments: [String] = [], administrator: Bool = true, port: Int = 0,
        prepare: (URL) async throws -> Void = { _ in }
    ) async throws {
        directory = try TemporaryDirectory("serve")
        let data = ["--data", directory.url.path]
        try await prepare(directory.url)
        if administrator {
            let admin = try await MusterProcess.run(
                ["users", "add", "ada", "--admin", "--password-stdin"] + data, stdin: "secret-ada\n")
            try #require(admin.status == 0, "\(admin)")
        }
        self.extraArguments = extraArguments
        (running, base, started) = try await Self.start(["serve", "--port", String(port)] + data + extraArguments)
    }

    /// Starts `muster serve` and waits for the line that says where it listens: for people, or with `--json`
    /// the JSON object.
    private static func start(_ arguments: [String]) async throws -> (MusterProcess.Running, URL, String) {
        let running = try MusterProcess.Running(arguments)
        let line = await running.waitForLine {
            $0.contains("listening on http") || $0.contains(#""listening":"http"#)
        }
        guard let line, let range = line.range(of: #"https?://[0-9.]+:[0-9]+"#, options: .regularExpression),
            let base = URL(string: String(line[range]))
        else {
            throw MusterProcess.Unexpected("muster serve did not start: \(running.stderr)")
        }
        return (running, base, line)
    }

    /// Stops the server with `signal` (SIGTERM: it must exit 0; another: it must die of it) and starts it again on
    /// the same port, data directory and options: once the port can be bound again, and checked to accept
    /// connections once it says it listens.
    func restart(after signal: Int32 = SIGTERM) async throws {
        let status = await running.stop(with: signal)
        if signal == SIGTERM {
            try #require(status == 0, "exit status \(status): \(running.stderr)")
        } else {
            try #require(
                running.endedBySignal && status == signal,
                "ended with \(status), not signal \(signal): \(running.stderr)")
        }
        try await startAgain()
    }

    /// Starts `muster serve` again, once it has ended, on the same port, data directory and options.
    func startAgain() async throws {
        let port = base.port ?? 0
        try await Self.poll("port \(port) to be free to bind again after the server stopped") {
            LoopbackPort.canBind(port)
        }
        (running, _, started) = try await Self.start(["serve", "--port", String(port)] + data + extraArguments)
        try await Self.poll("the restarted server, which printed \(started), to accept a connection") {
            [running] in
            guard running.isRunning else { throw MusterProcess.Unexpected("the server \(running.state())") }
            return LoopbackPort.accepts(port)
        }
    }

    /// Checks `condition` until it holds, for at most `seconds`; then fails naming what it waited for.
    private static func poll(
        _ what: String, seconds: Double = 10, _ condition: () throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while try !condition() {
            guard ContinuousClock.now < deadline else {
                throw MusterProcess.Unexpected("waited \(seconds) s for \(what)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs `muster arguments…` as ``MusterProcess/run(_:stdin:stdinFile:environment:launcher:timeout:)`` does;
    /// a failed run says whether this server still runs and how its stderr ends.
    func run(
        _ arguments: [String], stdin: String = "", environment: [String: String]? = nil
    ) async throws -> MusterProcess.Outcome {
        var outcome = try await MusterProcess.run(arguments, stdin: stdin, environment: environment)
        if outcome.status != 0 { outcome.server = running.state() }
        return outcome
    }

    /// The data directory arguments, for CLI commands run next to the server.
    var data: [String] { ["--data", directory.url.path] }

    func stop(with signal: Int32 = SIGTERM) async -> Int32 { await running.stop(with: signal) }

    deinit { directory.remove() }

    /// One HTTP answer.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? [] }
        var text: String { String(decoding: body, as: UTF8.self) }
        var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    }

    /// A plain HTTP request over a real socket.
    func send(
        _ method: String, _ path: String, token: String? = nil, json: String? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let body: Data
        let response: URLResponse
        do {
            (body, response) = try await URLSession.shared.data(for: request)
        } catch {
            // Say whether the server still runs and what it said last: a refused connection usually means it ended.
            throw MusterProcess.Unexpected(
                "\(method) \(path): \(error.localizedDescription); the server \(running.state())")
        }
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return Answer(status: http.statusCode, headers: headers, body: body)
    }

    /// The live streams open now: `muster_sse_connections` of `/metrics`; -1 when it has no such line.
    func openLiveStreams() async throws -> Int {
        let line = try await send("GET", "metrics").text.split(separator: "\n").first {
            $0.hasPrefix("muster_sse_connections ")
        }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? -1
    }

    /// Logs in and returns the access token.
    func login(_ user: String, password: String) async throws -> String {
        let answer = try await send(
            "POST", "api/v1/auth/token", json: #"{"username":"\#(user)","password":"\#(password)"}"#)
        try #require(answer.status == 200, "login of \(user): \(answer.text)")
        return try #require(answer.object["accessToken"] as? String)
    }
}
