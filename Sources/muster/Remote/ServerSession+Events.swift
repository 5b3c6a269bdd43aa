import EventLog
import MusterClient
import MusterWire

/// The log's events on a server: `GET /api/v1/events` (administrators), in the login's namespace.
extension ServerSession {
    /// The most events one request asks for (the server's bound).
    static let eventPage = 10_000

    /// Reads page after page until the query's limit or the end of the log.
    func events(_ query: EventQuery, _ each: (EventLine) throws -> Bool) async throws {
        var from = max(query.from, 1)
        var remaining = query.limit ?? Int.max
        while remaining > 0 {
            let asked = min(remaining, Self.eventPage)
            let page = try await call {
                try await $0.events(stream: query.stream, type: query.type, from: from, limit: asked)
            }
            for line in page {
                guard try each(line) else { return }
            }
            guard page.count == asked, let last = page.last else { return }
            from = last.position + 1
            remaining -= asked
        }
    }

    func followEvents(_ query: EventQuery) async throws -> any AsyncSequence<EventLine, any Error> & Sendable {
        // `--from P` is inclusive; the stream resumes after a position.
        try await relay(
            client.eventUpdates(stream: query.stream, type: query.type, after: String(max(query.from, 1) - 1))
        ) { $0.event }
    }
}
