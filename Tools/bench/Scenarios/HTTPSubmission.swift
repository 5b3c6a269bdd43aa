import EventLog
import EventLogTesting
import Foundation
import Muster
import MusterHTTP

/// Durable response submission over HTTP: `wrk` on loopback posting answers to a request template
/// (`POST /api/v1/requests/{name}/response`, each a `ResponseReceived` committed before the 201),
/// against the trivial `GET /api/v1/server` of the same server in the same run. Target ≥ 20,000 req/s.
struct HTTPSubmission: Scenario {
    let name = "http-submission"
    static let connections = 256

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        guard ExternalCommand.find("wrk") != nil else {
            throw BenchError.command("wrk is not installed (apt install wrk; Tools/install-deps installs it)")
        }
        let directory = try TemporaryDirectory("bench-http")
        defer { settings.discard(directory) }
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }
        try await Directory(log: log).addUser("bench", password: "bench-password")
        try await Requests(log: log).put(
            "report", title: "Report", body: "What happened?", responseTopic: "/bench/reports",
            payload: Data(#"{"fields":[{"id":"what","type":"inputString","label":"What?"}]}"#.utf8))

        let figures = try await withLoopbackServer(log: log, label: "bench-http") { base in
            var part = ScenarioReport(name)
            try await measure(base: base, log: log, settings: settings, into: &part)
            return part
        }
        report.comparisons += figures.comparisons
        report.context += figures.context
        report.notes += figures.notes
    }

    /// Runs wrk against the submission route, then the trivial one, and checks every answer was recorded.
    func measure(base: String, log: EventLog, settings: Settings, into report: inout ScenarioReport) async throws {
        guard let wrk = ExternalCommand.find("wrk") else { throw BenchError.command("wrk is not installed") }
        let token = try await Sessions(log: log).login(username: "bench", password: "bench-password").accessToken

        let scripts = try TemporaryDirectory("bench-wrk")
        defer { scripts.remove() }
        let post = scripts.url.appendingPathComponent("post.lua")
        try Data(
            """
            wrk.method = "POST"
            wrk.body = '{"deviceId":"bench","deviceName":"wrk","values":{"what":"pump 3 leaks"}}'
            wrk.headers["Content-Type"] = "application/json"
            wrk.headers["Authorization"] = "Bearer \(token)"
            """.utf8
        ).write(to: post)
        let duration = max(1, Int(settings.seconds.rounded()))

        let headBefore = log.head
        let cpuBefore = CPUTime.now()
        let submitted = try await Self.wrk(
            wrk, ["-s", post.path, "\(base)/api/v1/requests/report/response"], seconds: duration)
        let recorded = log.head - headBefore
        let cpuBetween = CPUTime.now()
        let trivial = try await Self.wrk(wrk, ["\(base)/api/v1/server"], seconds: duration)
        let cpuAfter = CPUTime.now()

        guard submitted.failures == 0 else {
            throw BenchError.command("\(submitted.failures) submissions were not answered 201")
        }
        guard recorded >= UInt64(submitted.requests) else {
            throw BenchError.command("wrk saw \(submitted.requests) answers but only \(recorded) events were recorded")
        }
        report.comparisons.append(
            Comparison(
                "durable response submission, \(Self.connections) connections",
                figure: Figure(label: "POST …/response", value: submitted.perSecond, unit: "req/s"),
                baseline: Figure(label: "GET /api/v1/server", value: trivial.perSecond, unit: "req/s")))
        report.context.append(Figure(label: "submission p99", value: submitted.p99Milliseconds, unit: "ms"))
        report.context.append(Figure(label: "trivial route p99", value: trivial.p99Milliseconds, unit: "ms"))
        report.context.append(Figure(label: "responses recorded", value: Double(recorded), unit: "events"))
        Self.reportCPU(cpuBetween - cpuBefore, requests: submitted.requests, route: "submission", into: &report)
        Self.reportCPU(cpuAfter - cpuBetween, requests: trivial.requests, route: "trivial route", into: &report)
        report.notes.append(
            String(format: "%.0f durable submissions/s: ", submitted.perSecond)
                + "target ≥ 20,000 req/s \(submitted.perSecond >= 20_000 ? "met" : "not met"); "
                + "wrk and the server share the machine's cores")
    }

    /// CPU per answered request: the server's (this process) and wrk's.
    static func reportCPU(_ used: CPUTime, requests: Int, route: String, into report: inout ScenarioReport) {
        let perRequest = 1_000_000 / Double(max(requests, 1))
        report.context.append(
            Figure(label: "\(route): server CPU per request", value: used.process * perRequest, unit: "µs"))
        report.context.append(
            Figure(label: "\(route): wrk CPU per request", value: used.children * perRequest, unit: "µs"))
    }

    struct WrkResult {
        var perSecond: Double
        var requests: Int
        var failures: Int
        var p99Milliseconds: Double
    }

    /// Runs wrk (2 threads, `connections` connections, with latency percentiles) and reads its summary.
    static func wrk(_ wrk: String, _ arguments: [String], seconds: Int) async throws -> WrkResult {
        let outcome = try await onThread("wrk") {
            try ExternalCommand(
                wrk, ["-t", "2", "-c", String(connections), "-d", "\(seconds)s", "--latency"] + arguments
            ).run()
        }
        let lines = outcome.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func number(after prefix: String) -> Double? {
            lines.first { $0.hasPrefix(prefix) }.flatMap {
                Double($0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces))
            }
        }
        guard let perSecond = number(after: "Requests/sec:") else {
            throw BenchError.command("wrk printed no Requests/sec: \(outcome.output.suffix(400))")
        }
        let requests = lines.first { $0.contains("requests in") }.flatMap { Int($0.split(separator: " ")[0]) } ?? 0
        let failures = Int(number(after: "Non-2xx or 3xx responses:") ?? 0)
        let p99 = lines.first { $0.hasPrefix("99%") }.map { milliseconds(String($0.dropFirst(3))) } ?? 0
        return WrkResult(perSecond: perSecond, requests: requests, failures: failures, p99Milliseconds: p99)
    }

    /// `1.23ms`, `450.00us`, `1.02s` in milliseconds.
    static func milliseconds(_ text: String) -> Double {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("ms") { return Double(t.dropLast(2)) ?? 0 }
        if t.hasSuffix("us") { return (Double(t.dropLast(2)) ?? 0) / 1000 }
        if t.hasSuffix("s") { return (Double(t.dropLast(1)) ?? 0) * 1000 }
        return 0
    }
}
