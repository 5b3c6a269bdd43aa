/// A live stream over Server-Sent Events that reconnects after a dropped connection, resuming after the last
/// event received (`Last-Event-ID`), so nothing is missed, until its consumer stops iterating.
///
/// Each iteration opens its own connection when it first asks for an event. It throws only when going on is
/// pointless: the user must log in again, the route refuses (403, 404), or the server breaks the contract.
public struct LiveStream<Event: Sendable & Hashable>: AsyncSequence, Sendable {
    /// An event and its log position.
    public typealias Element = LiveEvent<Event>
    /// Why the stream stopped.
    public typealias Failure = MusterClientError

    private let start: @Sendable () -> EventBuffer<LiveEvent<Event>>

    init(start: @escaping @Sendable () -> EventBuffer<LiveEvent<Event>>) {
        self.start = start
    }

    /// Starts an iteration: its own connection, opened on the first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(start: start)
    }

    /// Iterates a live stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// Why the stream stopped.
        public typealias Failure = MusterClientError

        private let start: @Sendable () -> EventBuffer<LiveEvent<Event>>
        private var base: EventBuffer<LiveEvent<Event>>.Iterator?

        init(start: @escaping @Sendable () -> EventBuffer<LiveEvent<Event>>) {
            self.start = start
        }

        /// The events held for this iteration, once it has started.
        var buffer: EventBuffer<LiveEvent<Event>>? { base?.buffer }

        /// The next event; nil when the task is cancelled.
        public mutating func next() async throws(MusterClientError) -> LiveEvent<Event>? {
            if base == nil { base = start().makeAsyncIterator() }
            do {
                return try await base?.next()
            } catch {
                throw MusterClientError.transport(error, url: nil)
            }
        }

        /// The next event, on the caller's actor; nil when the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(MusterClientError)
            -> LiveEvent<Event>?
        {
            if base == nil { base = start().makeAsyncIterator() }
            do {
                return try await base?.next()
            } catch {
                throw MusterClientError.transport(error, url: nil)
            }
        }
    }
}
