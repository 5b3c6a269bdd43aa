import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MusterClient {
    /// The user's inbox, live (`GET /api/v1/inbox`, `Accept: text/event-stream`): a message arriving, a message
    /// answered from any of the user's devices.
    ///
    /// Reconnects after a dropped connection with `Last-Event-ID`, so no event is missed, until the consumer
    /// stops iterating; the server's `retry` sets the pause, which grows while reconnecting keeps failing.
    ///
    /// - Parameter position: resume after this log position (a ``LiveEvent/position`` of an earlier run);
    ///   nil to start where the server starts a new stream.
    public func inboxUpdates(after position: String? = nil) -> LiveStream<InboxEvent> {
        liveStream(path: ["inbox"], after: position, decode: InboxEvent.decode)
    }

    /// Admin: what is published on topics matching `filter` (`GET /api/v1/topics/{filter…}`): response objects
    /// and published documents. `+` matches one level, `#` (last) any number, e.g. `/orders/+/accepted`,
    /// `/orders/#`. Reconnects like ``inboxUpdates(after:)``.
    ///
    /// - Parameters:
    ///   - filter: a topic or a topic filter.
    ///   - position: resume after this log position; nil to start where the server starts a new stream.
    public func topic(_ filter: String, after position: String? = nil) -> LiveStream<TopicEvent> {
        liveStream(path: ["topics"] + Self.topicSegments(filter), after: position, decode: TopicEvent.decode)
    }

    /// The longest silence tolerated on a stream before it counts as dropped: the server sends a keep-alive
    /// comment every 15 s.
    static let streamIdleTimeout: TimeInterval = 45
    /// The pause before reconnecting until the server sets one with `retry`.
    static let defaultReconnectionTime: Duration = .seconds(1)
    /// The longest pause between reconnection attempts.
    static let maximumReconnectionTime: Duration = .seconds(30)

    /// The most events a live stream holds for its consumer; past it, it stops reading until half are taken.
    static let liveStreamBufferLimit = 1024

    func liveStream<Event: Sendable & Hashable>(
        path: [String], query: [URLQueryItem] = [], after position: String?, bufferLimit: Int = liveStreamBufferLimit,
        decode: @escaping @Sendable (ServerSentEvent) throws(MusterClientError) -> Event?
    ) -> LiveStream<Event> {
        LiveStream { [self] in
            let buffer = EventBuffer<LiveEvent<Event>>(limit: bufferLimit)
            let pump = Task {
                do {
                    try await follow(path: path, query: query, after: position ?? "", decode: decode, into: buffer)
                    buffer.finish()
                } catch {
                    buffer.finish(throwing: error)
                }
            }
            buffer.onConsumerGone { pump.cancel() }
            return buffer
        }
    }

    /// Connects, delivers, and reconnects after `lastEventId` until cancelled or refused for good.
    private func follow<Event: Sendable & Hashable>(
        path: [String], query: [URLQueryItem], after position: String,
        decode: @Sendable (ServerSentEvent) throws(MusterClientError) -> Event?,
        into buffer: EventBuffer<LiveEvent<Event>>
    ) async throws(MusterClientError) {
        var lastEventId = position
        var reconnectionTime = Self.defaultReconnectionTime
        var failures = 0
        while !Task.isCancelled {
            var pause = reconnectionTime
            var used: AuthTokens?
            do {
                let tokens = try await validTokens()
                used = tokens
                var request = APIRequest("GET", path)
                request.query = query
                request.accept = "text/event-stream"
                var urlRequest = try request.urlRequest(serverURL: serverURL, bearer: tokens.accessToken)
                urlRequest.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
                if !lastEventId.isEmpty { urlRequest.setValue(lastEventId, forHTTPHeaderField: "Last-Event-ID") }
                let deliveries = EventStreamConnection.open(
                    urlRequest, lastEventId: lastEventId, configuration: streamConfiguration())
                var full = false
                reading: for try await delivery in deliveries {
                    switch delivery {
                    case .opened:
                        failures = 0
                        updateSession { session in
                            session.recordSuccess(statusCode: 200)
                            session.authValid = true
                        }
                    case .reconnectionTime(let time):
                        reconnectionTime = time
                    case .event(let event):
                        lastEventId = event.lastEventId
                        if let decoded = try decode(event),
                            !buffer.append(LiveEvent(position: event.lastEventId, event: decoded))
                        {
                            full = true
                            break reading
                        }
                    }
                }
                if full {
                    // Leaving the loop closed the connection: the consumer is behind. Go on after the last event
                    // buffered once it has taken half.
                    await buffer.room()
                    continue
                }
                // The server closed the stream (a restart, a shutdown): resume after the last event.
                pause = reconnectionTime
            } catch {
                let failure = MusterClientError.transport(error, url: nil)
                if failure.code == .cancelled { return }
                updateSession { $0.recordFailure(failure) }
                failures += 1
                if failure.code == .tokenExpired, let used {
                    // The clocks disagree: refresh, and reconnect at once the first time.
                    pause = failures == 1 ? .zero : Self.backoff(reconnectionTime, failures: failures, retryAfter: nil)
                    do {
                        _ = try await refreshedTokens(replacing: used)
                    } catch {
                        guard error.isTransient else { throw error }
                        pause = Self.backoff(reconnectionTime, failures: failures, retryAfter: error.retryAfter)
                    }
                } else {
                    if [.tokenRevoked, .tokenUnknown, .unauthenticated].contains(failure.code) { forgetTokens() }
                    guard failure.isTransient else { throw failure }
                    pause = Self.backoff(reconnectionTime, failures: failures, retryAfter: failure.retryAfter)
                }
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                return
            }
        }
    }

    /// The pause after `failures` failed attempts in a row: doubling from `base`, at most the maximum, and
    /// never shorter than the server's `Retry-After`.
    static func backoff(_ base: Duration, failures: Int, retryAfter: Duration?) -> Duration {
        var pause = base
        for _ in 1..<max(failures, 1) where pause < maximumReconnectionTime { pause *= 2 }
        pause = min(pause, maximumReconnectionTime)
        if let retryAfter { pause = max(pause, retryAfter) }
        return pause
    }

    /// The session configuration of a stream: the client's, with the idle timeout of a stream.
    private func streamConfiguration() -> URLSessionConfiguration {
        let configuration = urlSession.configuration
        configuration.timeoutIntervalForRequest = Self.streamIdleTimeout
        // A day: long enough not to matter, since the stream resumes; not infinity, which Linux would trap on.
        configuration.timeoutIntervalForResource = 24 * 60 * 60
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}
