import Synchronization

/// Events on their way from a live stream's connection to its consumer: at most `limit` of them.
///
/// URLSession hands a connection's data over as fast as it arrives, so a consumer slower than the server — a long
/// backlog read at once — would otherwise have the whole backlog held in memory. When the buffer is full the stream
/// closes its connection, waits until the consumer has taken half, and reconnects after the last event it buffered
/// (`Last-Event-ID`): nothing is missed, nothing is read twice.
final class EventBuffer<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = any Error

    /// The most events held.
    let limit: Int

    private struct State {
        var elements: [Element] = []
        var head = 0
        /// Set when the producer is done: nil for a plain end, or why it stopped.
        var end: (any Error)??
        /// The consumer's `next()`, waiting for an event.
        var consumer: CheckedContinuation<Element?, any Error>?
        /// The producer's `room()`, waiting for the consumer to take half.
        var producer: CheckedContinuation<Void, Never>?
        /// What stops the producer when the consumer goes away.
        var stopProducer: (@Sendable () -> Void)?
        var consumerGone = false
        /// The most events held at once, for tests.
        var largest = 0

        var count: Int { elements.count - head }

        /// The first event held, and the producer to wake when taking it leaves half or less.
        mutating func take(limit: Int) -> (Element, Waking?)? {
            guard count > 0 else { return nil }
            let element = elements[head]
            head += 1
            if head == elements.count {
                elements.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= limit {
                elements.removeFirst(head)
                head = 0
            }
            guard count <= limit / 2, let waiting = producer else { return (element, nil) }
            producer = nil
            return (element, waiting)
        }
    }

    private typealias Waking = CheckedContinuation<Void, Never>

    private let state = Mutex(State())

    init(limit: Int) {
        precondition(limit > 1, "a buffer of one event cannot hand over half")
        self.limit = limit
    }

    /// Sets what stops the producer when the consumer stops iterating (at once when it already has).
    func onConsumerGone(_ stop: @escaping @Sendable () -> Void) {
        let gone = state.withLock { state in
            state.stopProducer = stop
            return state.consumerGone
        }
        if gone { stop() }
    }

    // MARK: The producer's side

    /// Adds an event; false when the buffer is full with it, and the producer should stop reading until `room()`.
    func append(_ element: Element) -> Bool {
        let (consumer, full) = state.withLock { state -> (CheckedContinuation<Element?, any Error>?, Bool) in
            guard !state.consumerGone else { return (nil, true) }
            if let consumer = state.consumer {
                state.consumer = nil
                return (consumer, false)
            }
            state.elements.append(element)
            state.largest = Swift.max(state.largest, state.count)
            return (nil, state.count >= limit)
        }
        consumer?.resume(returning: element)
        return !full
    }

    /// Returns when the consumer has taken at least half of what is held, or has gone.
    func room() async {
        await withCheckedContinuation { (producer: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard !state.consumerGone, state.count > limit / 2 else { return true }
                state.producer = producer
                return false
            }
            if ready { producer.resume() }
        }
    }

    /// Ends the sequence after what is held: plainly, or throwing `error`.
    func finish(throwing error: (any Error)? = nil) {
        let consumer = state.withLock { state in
            if state.end == nil { state.end = .some(error) }
            defer { state.consumer = nil }
            return state.count == 0 ? state.consumer : nil
        }
        if let error { consumer?.resume(throwing: error) } else { consumer?.resume(returning: nil) }
    }

    // MARK: The consumer's side

    /// The next event; nil at the end or when the task is cancelled.
    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (consumer: CheckedContinuation<Element?, any Error>) in
                let (result, producer) = state.withLock { state -> (Result<Element?, any Error>?, Waking?) in
                    if let (element, producer) = state.take(limit: limit) { return (.success(element), producer) }
                    if state.consumerGone { return (.success(nil), nil) }
                    switch state.end {
                    case .some(.some(let error)): return (.failure(error), nil)
                    case .some(.none): return (.success(nil), nil)
                    case .none:
                        state.consumer = consumer
                        return (nil, nil)
                    }
                }
                producer?.resume()
                if let result { consumer.resume(with: result) }
            }
        } onCancel: {
            consumerGone()
        }
    }

    /// The consumer stopped: the producer is stopped and what is held let go.
    func consumerGone() {
        let (consumer, producer, stop) = state.withLock { state in
            state.consumerGone = true
            state.elements = []
            state.head = 0
            defer {
                state.consumer = nil
                state.producer = nil
            }
            return (state.consumer, state.producer, state.stopProducer)
        }
        stop?()
        producer?.resume()
        consumer?.resume(returning: nil)
    }

    /// The most events held at once so far.
    var largest: Int { state.withLock { $0.largest } }

    /// Whether the producer waits for the consumer to take half.
    var producerWaits: Bool { state.withLock { $0.producer != nil } }

    func makeAsyncIterator() -> Iterator { Iterator(buffer: self) }

    /// Iterates the buffer; when the consumer lets it go, the producer is stopped.
    final class Iterator: AsyncIteratorProtocol, Sendable {
        let buffer: EventBuffer

        init(buffer: EventBuffer) { self.buffer = buffer }

        func next() async throws -> Element? { try await buffer.next() }

        deinit { buffer.consumerGone() }
    }
}
