import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP connection to a `text/event-stream` route, its events as an async sequence.
///
/// A data delegate rather than `URLSession.bytes(for:)`, which Linux's Foundation lacks. The sequence ends
/// when the server closes the stream, throws a ``MusterClientError`` when the route refuses (its error JSON)
/// or the connection breaks, and cancels the request when its consumer stops.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, Sendable {
    /// What the connection delivers.
    enum Delivery: Sendable, Hashable {
        /// The server accepted the stream: status 200, `text/event-stream`.
        case opened
        /// An event.
        case event(ServerSentEvent)
        /// The server asked for another reconnection time (`retry`).
        case reconnectionTime(Duration)
    }

    private struct State {
        var parser: ServerSentEventParser
        var continuation: AsyncThrowingStream<Delivery, any Error>.Continuation
        var opened = false
        var refusal = Data()
    }

    /// The most of a refusal's body kept to decode its error.
    private static let refusalLimit = 64 * 1024

    private let state: Mutex<State>

    private init(lastEventId: String, continuation: AsyncThrowingStream<Delivery, any Error>.Continuation) {
        state = Mutex(State(parser: ServerSentEventParser(lastEventId: lastEventId), continuation: continuation))
    }

    /// Sends `request` and returns what the stream delivers.
    ///
    /// - Parameters:
    ///   - request: the GET, with `Accept: text/event-stream` and, when resuming, `Last-Event-ID`.
    ///   - lastEventId: the id events carry until the stream sets one.
    ///   - configuration: the session configuration; its request timeout is the longest silence tolerated.
    static func open(
        _ request: URLRequest, lastEventId: String, configuration: URLSessionConfiguration
    ) -> AsyncThrowingStream<Delivery, any Error> {
        let (deliveries, continuation) = AsyncThrowingStream<Delivery, any Error>.makeStream()
        let connection = EventStreamConnection(lastEventId: lastEventId, continuation: continuation)
        // The session holds its delegate until invalidated; didCompleteWithError invalidates it.
        let session = URLSession(configuration: configuration, delegate: connection, delegateQueue: nil)
        let task = session.dataTask(with: request)
        // Not synchronously: a termination may run inside a cancellation handler, and corelibs'
        // `cancel()` waits for the session's queue (see `URLSession.exchange`).
        continuation.onTermination = { _ in DispatchQueue.global().async { task.cancel() } }
        task.resume()
        return deliveries
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // The status is read here rather than in didReceive(response:), whose signature differs between
        // Apple's Foundation and Linux's.
        let response = dataTask.response as? HTTPURLResponse
        state.withLock { state in
            guard let response, Self.isEventStream(response) else {
                let room = Self.refusalLimit - state.refusal.count
                if room > 0 { state.refusal.append(data.prefix(room)) }
                return
            }
            if !state.opened {
                state.opened = true
                state.continuation.yield(.opened)
            }
            let before = state.parser.reconnectionTime
            let events = state.parser.parse(data)
            if let after = state.parser.reconnectionTime, after != before {
                state.continuation.yield(.reconnectionTime(after))
            }
            for event in events { state.continuation.yield(.event(event)) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        session.finishTasksAndInvalidate()
        let response = task.response as? HTTPURLResponse
        state.withLock { state in
            state.parser.finish()
            if let response, !Self.isEventStream(response) {
                state.continuation.finish(throwing: Self.refusalError(response, body: state.refusal))
            } else if let error {
                let failure = MusterClientError.transport(error, url: task.originalRequest?.url)
                if failure.code == .cancelled {
                    state.continuation.finish()
                } else {
                    state.continuation.finish(throwing: failure)
                }
            } else {
                // The server ended the stream (restart, shutdown); the caller reconnects.
                state.continuation.finish()
            }
        }
    }

    private static func isEventStream(_ response: HTTPURLResponse) -> Bool {
        guard response.statusCode == 200 else { return false }
        let type = response.value(forHTTPHeaderField: "Content-Type") ?? ""
        return type.lowercased().hasPrefix("text/event-stream")
    }

    private static func refusalError(_ response: HTTPURLResponse, body: Data) -> MusterClientError {
        if response.statusCode == 200 {
            let type = response.value(forHTTPHeaderField: "Content-Type") ?? "no content type"
            return MusterClientError(
                code: .invalidResponse, statusCode: 200,
                message: "the server answered a stream request with \(type) instead of text/event-stream")
        }
        return MusterClientError(
            statusCode: response.statusCode, body: body,
            retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
    }
}
