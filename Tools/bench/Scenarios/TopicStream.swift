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
        let (overHTTP, connections) = try await withLoopbackServer(log: log, label: name) { base in
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
        report.context.append(
            Figure(label: "connections it took (resumed with Last-Event-ID)", value: Double(connections), unit: ""))
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

    /// Events per second of the stream read from the start of the log, as a client reads it: a stream that ends (a
    /// server stopping, a dropped connection) is resumed with `Last-Event-ID`, as the SDK and the web app do. Returns
    /// the rate and the connections it took (one, unless something ended the stream).
    private static func readOverHTTP(_ count: Int, port: Int, token: String) throws -> (Double, connections: Int) {
        let start = ContinuousClock.now
        var received = 0
        var last: UInt64?
        var connections = 0
        while received < count {
            connections += 1
            guard connections <= count / 100 + 10 else {
                throw BenchError.command("the topic stream gave \(received) of \(count) events in \(connections) tries")
            }
            let socket = try LoopbackSocket(port: port)
            defer { socket.close() }
            var headers = [
                "Authorization": "Bearer \(token)", "Accept": "text/event-stream", "Connection": "close",
            ]
            if let last { headers["Last-Event-ID"] = String(last) }
            try socket.send(get: "/api/v1/topics/bench/%23" + (last == nil ? "?from=1" : ""), headers: headers)
            var reader = EventIDReader()
            try socket.readChunks { chunk in
                reader.read(chunk)
                return received + reader.ids >= count
            }
            received += reader.ids
            last = reader.last ?? last
        }
        return (Double(count) / seconds(since: start), connections)
    }
}

/// Counts the events of a Server-Sent Events byte stream and keeps the last one's id, across chunk boundaries: each
/// event's first line is `id: N` (the chunked encoding's own lines end with CRLF, so "\nid: " is never split by
/// anything but a read's boundary).
struct EventIDReader {
    private(set) var ids = 0
    private(set) var last: UInt64?
    private var pending: [UInt8] = []

    private static let marker = Array("\nid: ".utf8)

    /// Reads the next bytes; a line is looked at once it is complete.
    mutating func read(_ chunk: [UInt8]) {
        pending += chunk
        var lineStart = 0
        while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[lineStart..<newline]
            if line.starts(with: Self.marker.dropFirst()) {
                ids += 1
                last = UInt64(String(decoding: line.dropFirst(Self.marker.count - 1), as: UTF8.self))
            }
            lineStart = newline + 1
        }
        pending.removeFirst(lineStart)
    }
}
