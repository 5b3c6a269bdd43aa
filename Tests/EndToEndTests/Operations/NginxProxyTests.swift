import EventLogTesting
import Foundation
import Testing

/// The reverse proxy of Docs/operations.md, run: nginx with the guide's server block in front of `muster serve` with
/// the guide's `--client-address-header` line. A live stream delivers through it at once, and the server tells
/// clients behind it apart.
@Suite(.serialized) struct NginxProxyTests {
    /// `curl ARGUMENTS…` from the loopback address `source` (Linux routes all of 127/8 to loopback), its output in a
    /// file read while it runs.
    final class Curl: Sendable {
        let process: ChildProcess
        let output: URL

        init(from source: String, _ arguments: [String]) throws {
            output = FileManager.default.temporaryDirectory.appendingPathComponent("muster-curl-\(UUID().uuidString)")
            process = try ChildProcess(
                "/usr/bin/curl", ["-sS", "--interface", source] + arguments, stdout: output.path,
                stderr: output.path + ".err")
        }

        var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// Runs to its end; the HTTP status (`-w '%{http_code}'` is the last line).
        static func status(from source: String, _ arguments: [String]) async throws -> (Int, String) {
            let curl = try Curl(from: source, ["-o", "/dev/null", "-w", "%{http_code}\n"] + arguments)
            defer { curl.remove() }
            let exit = ChildProcess.exitCode(await curl.process.waitForExit())
            let errors = (try? String(contentsOfFile: curl.output.path + ".err", encoding: .utf8)) ?? ""
            return (
                exit == 0 ? Int(curl.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 : -Int(exit), errors
            )
        }

        func stop() {
            if process.isRunning { process.send(SIGTERM) }
            process.reap()
            remove()
        }

        private func remove() {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(atPath: output.path + ".err")
        }
    }

    /// The guide's serve line behind the proxy, on a free port, with failed logins held 900 s (so the second failure
    /// is throttled however slow the machine).
    static func serverArguments(_ guide: OperationsGuide) async throws -> [String] {
        let line = try #require(guide.blocks(tagged: "sh serve").first { $0.text.contains("--client-address-header") })
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_PORT"] = "0"
        let arguments = try await Shell.musterArguments(line.text, environment: environment)
        #expect(arguments.contains("X-Forwarded-For"), "\(arguments)")
        return Array(arguments.dropFirst()) + ["--failed-login-delay", "900"]
    }

    @Test func aLiveStreamPassesThroughNginxUnbufferedAndClientsBehindItAreToldApart() async throws {
        let guide = try OperationsGuide()
        let block = try #require(guide.blocks(tagged: "nginx").first)
        #expect(block.text.contains("proxy_buffering off;"))
        let server = try await ServerProcess(extraArguments: try await Self.serverArguments(guide))
        let proxy = try await NginxProxy(serverBlock: block.text, upstreamPort: server.base.port ?? 0)
        defer { proxy.stop() }
        let base = "http://127.0.0.1:\(proxy.port)"
        let token = try await server.login("ada", password: "secret-ada")

        // A live stream through nginx; once the server counts it open, an event published now must come through
        // while the stream stays open.
        let listener = try Curl(
            from: "127.0.0.2",
            [
                "-N", "-H", "Authorization: Bearer \(token)", "-H", "Accept: text/event-stream",
                base + "/api/v1/topics/plant/alarms",
            ])
        defer { listener.stop() }
        try await eventually("the stream through nginx to be open at the server") {
            guard listener.process.isRunning else {
                throw MusterProcess.Unexpected("curl ended: \(listener.text) \(proxy.log)")
            }
            let metrics = try await server.send("GET", "metrics").text
            return metrics.split(separator: "\n").contains {
                $0.hasPrefix("muster_sse_connections ") && !$0.hasSuffix(" 0") && !$0.hasSuffix(" 0.0")
            }
        }
        let published = try await server.send(
            "POST", "api/v1/topics/plant/alarms", token: token, json: #"{"pump":"p-4711"}"#)
        #expect(published.status == 202, "\(published.text)")
        try await eventually("the event to come through nginx: \(listener.text)") {
            listener.text.contains("event: publish") && listener.text.contains("p-4711")
        }
        #expect(listener.process.isRunning, "the stream is still open: nothing was held until its end")

        // Two clients behind nginx (nginx's own address is 127.0.0.1 for both): failed logins throttle the one that
        // failed, not the other — the server counts by X-Forwarded-For.
        let wrong = [
            "-H", "Content-Type: application/json", "-d", #"{"username":"ada","password":"wrong-4711"}"#,
            base + "/api/v1/auth/token",
        ]
        // The server lets five failures for one name from one address through, then holds that address back.
        for attempt in 1...5 {
            let failed = try await Curl.status(from: "127.0.0.2", wrong)
            #expect(failed.0 == 401, "attempt \(attempt): \(failed.1) \(proxy.log)")
        }
        let again = try await Curl.status(from: "127.0.0.2", wrong)
        #expect(again.0 == 429, "the same client, held back: \(again.1)")
        let other = try await Curl.status(from: "127.0.0.3", wrong)
        #expect(other.0 == 401, "another client behind the same proxy is not held back: \(other.1)")
        let access =
            (try? String(contentsOf: proxy.directory.url.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        #expect(
            access.contains("127.0.0.2") && access.contains("127.0.0.3"), "the requests went through nginx: \(access)")
        #expect(await server.stop() == 0)
    }
}
