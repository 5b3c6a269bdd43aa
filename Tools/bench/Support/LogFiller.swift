import EventLog
import Foundation

/// Fills a data directory with sample events, 10,000 per write transaction. As `muster import` does, the next
/// transaction's events are made while the writer commits the previous one.
enum LogFiller {
    static let eventsPerCommit = 10_000
    static let eventsPerRequest = 100

    /// Appends `events` events to a new log in `directory` and closes it. Returns events/s.
    static func fill(_ directory: URL, events: Int, bodySize: Int) async throws -> Double {
        let log = try EventLog(directory: directory)
        defer { log.close() }
        let start = ContinuousClock.now
        var written = 0
        var committing: PendingWrite<Void>?
        while written < events {
            let count = min(eventsPerCommit, events - written)
            let batch = requests(from: written, count: count, bodySize: bodySize)
            try await committing?.value
            committing = log.submit { scope in
                for request in batch { try scope.append(request) }
            }
            written += count
        }
        try await committing?.value
        return Double(written) / seconds(since: start)
    }

    /// Fills `log` until its data file uses at least `bytes`. Returns the events written.
    static func fill(_ log: EventLog, toBytes bytes: Int, bodySize: Int) async throws -> Int {
        var written = 0
        while log.environment.usedSize < bytes {
            try await append(to: log, from: written, count: eventsPerCommit, bodySize: bodySize)
            written += eventsPerCommit
        }
        return written
    }

    /// One write transaction of `count` events.
    static func append(to log: EventLog, from first: Int, count: Int, bodySize: Int) async throws {
        let batch = requests(from: first, count: count, bodySize: bodySize)
        try await log.perform { scope in
            for request in batch { try scope.append(request) }
        }
    }

    /// The append requests of one transaction of `count` events: `eventsPerRequest` to a stream, over 1,000 streams.
    static func requests(from first: Int, count: Int, bodySize: Int) -> [AppendRequest] {
        var requests: [AppendRequest] = []
        var n = first
        while n < first + count {
            let size = min(eventsPerRequest, first + count - n)
            let events = (n..<n + size).map { SampleBody.event($0, size: bodySize) }
            requests.append(AppendRequest(stream: "stream-\(n / eventsPerRequest % 1000)", events: events))
            n += size
        }
        return requests
    }
}
