import EventLog
import EventLogTesting
import Foundation
import Muster

/// `topic-stream`: how fast one live stream of `GET /api/v1/topics/…` carries a backlog of publications to a client
/// (100,000; 5,000 with --smoke), against the same publications read in process from the stream's source
/// (`Notifications.listen`, the baseline: the server's part without the HTTP edge). The edge formats each event as
/// Server-Sent Events, checks before each one that the caller's token still holds, and writes it.
struct TopicStream: Scenario {
    let name = "topic-stream"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let publications = settings.smoke ? 5_000 : 100_000
        let directory = try TemporaryDirectory("bench-topics")
        defer { settings.discard(directory) }
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }
        try await Directory(log: log).addUser("ada", password: "bench-password", isAdmin: true)
        let token = try await Sessions(log: log).login(username: "ada", password: "bench-password").accessToken
        try await Self.publish(publications, on: log)

        let inProcess = try await Self.readInProcess(publications, log: log)
        let overHTTP = try await withLoopbackServer(log: log, label: name) { base in
            let port = Int(base.split(separator: ":").last!)!
            return try await onThread("topic-stream client") {
                try Self.readOverHTTP(publications, port: port, token: token)
            }
        }
        report.comparisons.append(
            Comparison(
                "a backlog of \(publications) publications through one topic stream",
                figure: Figure(label: "GET /api/v1/topics/bench/# (SSE)", value: overHTTP, unit: "events/s"),
                baseline: Figure(label: "Notifications.listen in process", value: inProcess, unit: "events/s"),
                status: "higher is better; the ratio is what the HTTP edge leaves"))
    }

    /// Publishes `count` small documents on `/bench/<n % 10>`, 64 at a time (the writer commits them in groups).
    private static func publish(_ count: Int, on log: EventLog) async throws {
        let notifications = Notifications(log: log)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<64 {
                group.addTask {
                    for n in stride(from: lane, to: count, by: 64) {
                        let document = Data(#"{"n":\#(n),"reading":"bench"}"#.utf8)
                        _ = try await notifications.publish(document, on: "/bench/\(n % 10)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Events per second of the stream's source read in process from the start.
    private static func readInProcess(_ count: Int, log: EventLog) async throws -> Double {
        let start = ContinuousClock.now
        var received = 0
        for try await _ in Notifications(log: log).listen(try TopicFilter("/bench/#"), from: 1) {
            received += 1
            if received == count { break }
        }
        return Double(count) / seconds(since: start)
    }

    /// Events per second of one SSE connection from the start of the log, counted as `id:` lines arrive.
    private static func readOverHTTP(_ count: Int, port: Int, token: String) throws -> Double {
        let socket = try LoopbackSocket(port: port)
        defer { socket.close() }
        let start = ContinuousClock.now
        try socket.send(
            get: "/api/v1/topics/bench/%23?from=1",
            headers: ["Authorization": "Bearer \(token)", "Accept": "text/event-stream"])
        // Each event's first line is `id: N`: counted as "\nid: " across chunk boundaries (the last bytes are kept).
        let marker = Array("\nid: ".utf8)
        var received = 0
        var carried: [UInt8] = []
        try socket.readChunks { chunk in
            let bytes = carried + chunk
            var index = 0
            while index + marker.count <= bytes.count {
                if bytes[index] == marker[0] && bytes[index..<index + marker.count].elementsEqual(marker) {
                    received += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            carried = Array(bytes.suffix(marker.count - 1))
            return received >= count
        }
        guard received >= count else {
            throw BenchError.command("the topic stream ended after \(received) of \(count) events")
        }
        return Double(count) / seconds(since: start)
    }
}
