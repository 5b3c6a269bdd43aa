import CNATS
import Foundation
import Synchronization

/// Reads a stream in order from a sequence on: what is stored, then each new message as it is stored. For a
/// follower that applies the leader's log.
///
/// Asked for with `fetch(max:timeout:)` rather than handed out as an `AsyncSequence`: a follower applies messages in
/// batches (one write transaction each) and must come back between batches to check its own state (its lease, a
/// shutdown); a fetch returns what is there at once, or waits up to `timeout` for the first message and returns an
/// empty batch when none came. No task runs behind the caller's back and nothing piles up in memory: messages wait in
/// libnats (which tells the server to slow down) until the next fetch.
///
/// Underneath is a JetStream *ordered consumer* (libnats' `jsSubOptions.Ordered`): an ephemeral push consumer without
/// acknowledgements that starts at the sequence; when libnats sees a gap in the consumer's own sequence, or misses its
/// heartbeats (5 s apart; after a server's loss), it makes a new consumer from the sequence after the last one it
/// received, by itself. So each fetch continues exactly after the previous one: sequences only grow, and none is
/// skipped unless the stream no longer holds it.
///
/// Thread use of the `natsSubscription *`: one fetch at a time calls `natsSubscription_NextMsg` on a thread of
/// `CallThreads`; `close()` may call `natsSubscription_Unsubscribe` meanwhile (libnats wakes the fetch, which ends
/// with what it has); `deinit` destroys it, when no fetch can run any more (each holds the reader).
public final class StreamReader: @unchecked Sendable {
    /// The stream read.
    public let stream: String
    private let connection: NATSConnection
    private let subscription: OpaquePointer
    private let state: Mutex<State>

    private struct State {
        var nextSequence: UInt64
        var fetching = false
        var closed = false
    }

    init(stream: String, connection: NATSConnection, subscription: OpaquePointer, from sequence: UInt64) {
        self.stream = stream
        self.connection = connection
        self.subscription = subscription
        self.state = Mutex(State(nextSequence: sequence))
    }

    /// The sequence the next message will have at the least: the one after the last message fetched.
    public var nextSequence: UInt64 { state.withLock { $0.nextSequence } }

    /// Returns up to `max` messages in stream order: those already received at once, else the first to arrive within
    /// `timeout`, else none.
    ///
    /// Throws `closed` after `close()`, and `invalidArgument` when another fetch of this reader is running. Cancelling
    /// the calling task does not end a fetch early: it returns within `timeout`.
    public func fetch(max: Int = 256, timeout: Duration) async throws -> [StreamMessage] {
        let stream = stream
        let next = try state.withLock { state -> UInt64 in
            if state.closed { throw NATSError(.closed, "the reader of the stream \(stream) was closed") }
            if state.fetching {
                throw NATSError(.invalidArgument, "another fetch of the reader of the stream \(stream) is running")
            }
            state.fetching = true
            return state.nextSequence
        }
        let subscription = Handle(subscription)
        let result: Result<[StreamMessage], any Error>
        do {
            result = .success(
                try await connection.blocking { connection in
                    try Self.take(
                        from: subscription.pointer, stream: stream, after: next, max: max, timeout: timeout,
                        connection: connection)
                })
        } catch {
            result = .failure(error)
        }
        state.withLock { state in
            state.fetching = false
            if case .success(let messages) = result, let last = messages.last { state.nextSequence = last.sequence + 1 }
        }
        return try result.get()
    }

    /// Ends the reader: deletes its consumer on the server and wakes a waiting fetch. Later fetches throw `closed`.
    public func close() async {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        let subscription = Handle(subscription)
        _ = try? await connection.blocking { _ in natsSubscription_Unsubscribe(subscription.pointer) }
    }

    deinit {
        natsSubscription_Destroy(subscription)
    }

    /// The blocking part of `fetch`: takes messages from libnats' queue. On a thread of `CallThreads`.
    private static func take(
        from subscription: OpaquePointer, stream: String, after next: UInt64, max: Int, timeout: Duration,
        connection: NATSConnection
    ) throws -> [StreamMessage] {
        var messages: [StreamMessage] = []
        var next = next
        let deadline = ContinuousClock.now + timeout
        while messages.count < max {
            // Wait for the first message only; then take what is queued.
            let wait = messages.isEmpty ? Swift.max(0, (deadline - .now).milliseconds) : 0
            var message: OpaquePointer?
            let status = natsSubscription_NextMsg(&message, subscription, wait)
            defer { natsMsg_Destroy(message) }
            if status == NATS_TIMEOUT { break }
            // A message dropped for a full queue: the ordered consumer sees the gap and starts again after the last
            // message it passed on. Return what there is; the next fetch goes on.
            if status == NATS_SLOW_CONSUMER { break }
            if status == NATS_INVALID_SUBSCRIPTION || status == NATS_CONNECTION_CLOSED {
                if messages.isEmpty {
                    throw NATSError(.closed, "the reader of the stream \(stream) was closed")
                }
                break
            }
            try connection.check(
                status, "reading the stream \(stream) from \(next)", call: "natsSubscription_NextMsg")
            let sequence = try streamSequence(of: message!, stream: stream, connection: connection)
            // Never again a message already returned, whatever a consumer's restart sends.
            guard sequence >= next else { continue }
            messages.append(StreamMessage(message!, sequence: sequence))
            next = sequence + 1
        }
        return messages
    }

    /// The stream sequence of a message a consumer delivered, from the metadata in its reply subject.
    private static func streamSequence(
        of message: OpaquePointer, stream: String, connection: NATSConnection
    ) throws -> UInt64 {
        var metadata: UnsafeMutablePointer<jsMsgMetaData>?
        defer { jsMsgMetaData_Destroy(metadata) }
        try connection.check(
            natsMsg_GetMetaData(&metadata, message), "reading the sequence of a message of the stream \(stream)",
            call: "natsMsg_GetMetaData")
        return metadata!.pointee.Sequence.Stream
    }
}

extension NATSConnection {
    /// A reader of `stream` from `sequence` on (1: the start), for the messages on `subject` (the stream's subject
    /// wildcard, `muster.acme.>`, for all of them).
    ///
    /// Throws `notFound` when there is no such stream.
    public func read(stream: String, subject: String, from sequence: UInt64) async throws -> StreamReader {
        let start = Swift.max(sequence, 1)
        let subscription = try await blocking { connection in
            var options = jsSubOptions()
            jsSubOptions_Init(&options)
            return try stream.withCString { streamName in
                options.Stream = streamName
                options.Ordered = true
                options.Config.DeliverPolicy = js_DeliverByStartSequence
                options.Config.OptStartSeq = start
                var subscription: OpaquePointer?
                var code = jsErrCode(0)
                let status = js_SubscribeSync(&subscription, connection.jetStream, subject, nil, &options, &code)
                try connection.check(
                    status, "starting to read the stream \(stream) from \(start)", call: "js_SubscribeSync",
                    jetStreamCode: code)
                return Handle(subscription!)
            }
        }
        return StreamReader(stream: stream, connection: self, subscription: subscription.pointer, from: start)
    }
}
