import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// One Server-Sent Event.
struct ServerSentEvent: Sendable, Hashable {
    /// The log position, sent as `id:` so a client resumes after it with `Last-Event-ID`.
    var id: UInt64
    var event: String
    /// JSON on one line.
    var data: Data

    var frame: ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("id: \(id)\nevent: \(event)\ndata: ")
        buffer.writeBytes(data)
        buffer.writeString("\n\n")
        return buffer
    }
}

/// A `text/event-stream` response over a live sequence of events: a keep-alive comment while quiet, and the end of
/// the stream when the client goes away (its connection closes), the server shuts down gracefully, or the caller's
/// token stops holding.
enum EventStream {
    /// Where a client resumes: after `Last-Event-ID`, or at `?from=`, or from now on (nil).
    ///
    /// Both come from outside, so both are checked against the log as it is now: `Last-Event-ID` must be
    /// a position of this log (0 up to `head`), `from` at most one past it (0 is read as 1, the first).
    /// Anything else — a number from another server, or one made up — is a 400, never a trap.
    static func start(_ request: Request, head: UInt64) throws -> UInt64? {
        if let last = request.headers[.lastEventID] {
            let text = last.trimmingCharacters(in: .whitespaces)
            guard let position = UInt64(text), position <= head else {
                throw APIError(
                    .badRequest, "bad_request",
                    "Last-Event-ID \(text) is not a position of this log (0 to \(head)); "
                        + "reconnect without it to follow from now on",
                    fields: [.init(field: "Last-Event-ID", message: "expected a log position from 0 to \(head)")])
            }
            return position + 1
        }
        let expected = "a log position from 1 to \(head + 1)"
        return try request.query("from", expected) { text in
            UInt64(text).flatMap { $0 <= head + 1 ? max($0, 1) : nil }
        }
    }

    /// The comment that ends a stream whose token stopped holding.
    static let tokenEnded = ": the token expired or was revoked; log in again and reconnect with Last-Event-ID\n\n"

    /// - Parameters:
    ///   - queueLimit: how many bytes of frames the events are read ahead of the client at most.
    ///   - holds: whether the caller's token still lets them listen; asked before every write (of the events and
    ///     keep-alives waiting), so nothing reaches a client after its logout, and a stream outlives an expired token
    ///     by a keep-alive at most.
    static func response<Events: AsyncSequence & Sendable>(
        _ events: Events, keepAlive: Duration, metrics: ServerMetrics, until closed: EventLoopFuture<Void>,
        queueLimit: Int = 64 * 1024, holds: @escaping @Sendable () async -> Bool
    ) -> Response where Events.Element == ServerSentEvent {
        let body = ResponseBody { writer in
            metrics.stream(opened: true)
            defer { metrics.stream(opened: false) }
            // The events are read as the client takes them (they are in the log): the reader runs at most a queue's
            // limit ahead, so a long backlog or a client slower than the events keeps one stream going at the
            // client's pace; what waits is written in one go (a backlog in writes of up to the limit).
            let frames = FrameQueue(limit: queueLimit)
            let producer = Task {
                do {
                    for try await event in events {
                        guard await frames.push(event.frame) else { break }
                    }
                } catch {}
                frames.finish()
            }
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: keepAlive)
                    _ = await frames.push(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            defer {
                producer.cancel()
                ticker.cancel()
            }
            // A client that left ends the stream now, not at the next write, which may be a keep-alive away.
            closed.whenComplete { _ in frames.finish() }
            // A graceful shutdown ends the stream; the client reconnects elsewhere with Last-Event-ID.
            try await withGracefulShutdownHandler {
                try await writer.write(ByteBuffer(string: ": stream open\n\n"))
                while let waiting = await frames.take() {
                    guard await holds() else {
                        try await writer.write(ByteBuffer(string: tokenEnded))
                        break
                    }
                    try await writer.write(waiting)
                }
            } onGracefulShutdown: {
                frames.finish()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
            body: body)
    }
}

extension API {
    /// The answer of a route that `access` may call: a live stream of `events` that ends when the caller's token
    /// stops holding, as well as when the client leaves or the server stops.
    func liveStream<Events: AsyncSequence & Sendable>(
        _ events: Events, context: Context, for access: Access
    ) -> Response where Events.Element == ServerSentEvent {
        let token = context.bearerToken
        let authenticator = self.authenticator
        return EventStream.response(
            events, keepAlive: configuration.keepAlive, metrics: metrics, until: context.connectionClosed
        ) { await access.holds(token: token, authenticator) }
    }
}

extension HTTPField.Name {
    static let lastEventID = Self("Last-Event-ID")!
    /// The log position a list was read at: resume its live stream with `Last-Event-ID` set to it.
    static let logPosition = Self("Muster-Log-Position")!
}
