import Foundation

/// A live stream (`Accept: text/event-stream`) held open on a thread of its own until a marker arrives: the
/// socket reads block, so they stay off Swift's cooperative pool and dispatch's global queues.
final class StreamWatch: Sendable {
    private let arrived: Task<String, any Error>

    /// Opens `GET path` with `token` on loopback `port`, returns once the answer's headers came, and reads on
    /// until the stream carries `marker` (or `limit` seconds pass).
    init(port: Int, path: String, token: String, until marker: String, limit: Double = 120) async throws {
        let request =
            "GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Accept: text/event-stream\r\n\r\n"
        let (opened, openedContinuation) = AsyncThrowingStream<String, any Error>.makeStream()
        Thread.detachNewThread {
            do {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                openedContinuation.yield(try connection.blockingRead(until: "\r\n\r\n", limit: 30))
                openedContinuation.yield(try connection.blockingRead(until: marker, limit: limit))
                openedContinuation.finish()
            } catch {
                openedContinuation.finish(throwing: error)
            }
        }
        var lines = opened.makeAsyncIterator()
        let headers = try await lines.next() ?? ""
        guard headers.hasPrefix("HTTP/1.1 200") else {
            throw RawConnection.Failure("GET /\(path) did not open a stream: \(headers)")
        }
        arrived = Task { [lines] in
            var rest = lines
            return try await rest.next() ?? ""
        }
    }

    /// Everything the stream carried up to and including the marker; throws when it closed or timed out first.
    func text() async throws -> String { try await arrived.value }
}
