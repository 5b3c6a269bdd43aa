import CNATS
import Synchronization

/// A message for the batch publish `publish(_:timeout:)`: what the one-at-a-time publish takes, for one message.
public struct OutgoingMessage: Sendable, Hashable {
    /// The subject; a stream must capture it.
    public var subject: String
    /// The payload.
    public var data: [UInt8]
    /// The ID for de-duplication (`Nats-Msg-Id`): a message whose ID the stream saw within its duplicate window is
    /// acknowledged with `duplicate` and the first one's sequence, and not stored again.
    public var messageID: String?
    /// Store only if the stream's last sequence is this one (0: the stream is empty); `wrongLastSequence` otherwise.
    public var expectedLastSequence: UInt64?
    /// Header names and values to store with the message (names are case-sensitive).
    public var headers: [String: String]

    /// A message to publish to `subject`.
    public init(
        subject: String, data: [UInt8], messageID: String? = nil, expectedLastSequence: UInt64? = nil,
        headers: [String: String] = [:]
    ) {
        self.subject = subject
        self.data = data
        self.messageID = messageID
        self.expectedLastSequence = expectedLastSequence
        self.headers = headers
    }
}

extension NATSConnection {
    /// Publishes `messages` in order without waiting for each acknowledgement in turn, then waits for them all, and
    /// returns them in the batch's order: acknowledgement i belongs to message i. A message means what it means to
    /// `publish(subject:data:messageID:expectedLastSequence:…)`, which waits a round trip per message.
    ///
    /// Throws the error of the first message, in batch order, that was not acknowledged, as the one-at-a-time publish
    /// would throw it (`wrongLastSequence` with JetStream error 10071; `unavailable` for no acknowledgement in time, no
    /// responders, a lost connection; `failed` with JetStream's code), with `acknowledgedBefore` set to its index: the
    /// messages before it were all acknowledged. Resume from it with the same IDs and expected sequences: whatever of
    /// it and the messages after it was stored is acknowledged as a duplicate (within the stream's duplicate window).
    /// Once a failure is known no more messages are sent; those sent after the failed one may still have been stored
    /// (those without an expected sequence).
    ///
    /// - Parameter timeout: how long each message may wait for its acknowledgement after it was sent; the
    ///   configuration's `requestTimeout` by default. A server that answers nothing fails the batch after about twice
    ///   that: the messages in flight (at most 256) time out, then the one whose send waited for room among them.
    public func publish(_ messages: [OutgoingMessage], timeout: Duration? = nil) async throws
        -> [PublishAcknowledgement]
    {
        guard !messages.isEmpty else { return [] }
        let wait = (timeout ?? configuration.requestTimeout).milliseconds
        guard wait > 0 else {
            throw NATSError(.invalidArgument, "a publish timeout must be at least 1 ms, not \(timeout!)")
        }
        return try await blocking { connection in try connection.publishPipelined(messages, wait: wait) }
    }

    /// At most this many messages of a batch wait for their acknowledgement at once; the next one is sent when one of
    /// them is answered. Enough to keep the connection busy, and it bounds what is sent after a failure not yet known.
    private static let publishWindow: Int64 = 256

    /// The blocking part of the batch publish, on a thread of `CallThreads`.
    ///
    /// libnats takes one acknowledgement handler (and closure) per `jsCtx`, and `js_PublishAsyncComplete` waits for
    /// every message pending on its `jsCtx`: so each batch gets a `jsCtx` of its own, with this call's `PublishBatch`
    /// as the closure, and destroys it before returning. No callback of one batch can see another's state, and the
    /// connection's shared `jsCtx` stays as it is for the synchronous calls.
    private func publishPipelined(_ messages: [OutgoingMessage], wait: Int64) throws -> [PublishAcknowledgement] {
        let batch = PublishBatch(count: messages.count)
        // libnats holds the batch unretained: it must live until no callback can come any more (`drain`).
        return try withExtendedLifetime(batch) {
            let context = try makeBatchContext(for: batch, wait: wait)
            var sent = 0
            var sendFailure: NATSError?
            while sent < messages.count && !batch.failed {
                do {
                    try send(messages, at: sent, on: context, wait: wait, batch: batch)
                    sent += 1
                } catch {
                    // Only NATSErrors come; whatever comes, what was sent must still be drained below.
                    sendFailure = error as? NATSError ?? NATSError(.failed, "publishing a batch failed: \(error)")
                    break
                }
            }
            let drained = drain(context, wait: wait)
            jsCtx_Destroy(context)
            // Should a callback still run (it never took 5 s), the batch must outlive it: a small leak, no crash.
            if !drained { _ = Unmanaged.passRetained(batch) }
            return try acknowledgements(of: messages, batch.outcomes, sent: sent, sendFailure: sendFailure)
        }
    }

    /// A `jsCtx` whose acknowledgement callbacks report to `batch`.
    private func makeBatchContext(for batch: PublishBatch, wait: Int64) throws -> OpaquePointer {
        var options = jsOptions()
        jsOptions_Init(&options)
        options.Wait = configuration.requestTimeout.milliseconds
        options.PublishAsync.MaxPending = Self.publishWindow
        // A full window without an answer for a whole timeout: the server is not answering.
        options.PublishAsync.StallWait = wait
        options.PublishAsync.AckHandler = PublishBatch.acknowledgementHandler
        options.PublishAsync.AckHandlerClosure = Unmanaged.passUnretained(batch).toOpaque()
        var context: OpaquePointer?
        try check(
            natsConnection_JetStream(&context, handle, &options), "preparing a batch publish",
            call: "natsConnection_JetStream")
        return context!
    }

    /// Sends message `index` of `messages` without waiting for its acknowledgement.
    private func send(
        _ messages: [OutgoingMessage], at index: Int, on context: OpaquePointer, wait: Int64, batch: PublishBatch
    ) throws {
        let outgoing = messages[index]
        let headers = Self.headers(outgoing.headers, expectedLastSequence: outgoing.expectedLastSequence)
        var message: OpaquePointer? = try makeMessage(subject: outgoing.subject, data: outgoing.data, headers: headers)
        // libnats clears `message` when it takes it; otherwise it is still ours.
        defer { natsMsg_Destroy(message) }
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        // libnats reports a message unanswered after MaxWait to the callback as NATS_TIMEOUT; 0 would wait forever.
        options.MaxWait = wait
        // Before the call: the acknowledgement may come before it returns.
        batch.expect(message!, at: index)
        let status = (outgoing.messageID ?? "").withCString { id in
            if outgoing.messageID != nil { options.MsgId = id }
            return js_PublishMsgAsync(context, &message, &options)
        }
        guard status == NATS_OK else {
            let error = NATSError(
                "publishing message \(index + 1) of \(messages.count) to \(outgoing.subject) (\(index) acknowledged "
                    + "before it)", call: "js_PublishMsgAsync", status: status, secrets: configuration.secrets)
            batch.forget(message!)
            throw error
        }
    }

    /// Waits until libnats holds no message of the batch and runs no callback for it: true then.
    ///
    /// `js_PublishAsyncComplete` returns when libnats' count of pending messages is 0, which it lowers only after a
    /// callback returned; with the messages gone from its table, libnats starts no callback any more.
    private func drain(_ context: OpaquePointer, wait: Int64) -> Bool {
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        // Each message times out `wait` after it was sent, the last one just before this call; the extra second covers
        // libnats' timer handing the timeouts to the callback thread. In slices: a connection closed meanwhile stops
        // the callbacks, and need not be waited for.
        let end = ContinuousClock.now + .milliseconds(wait + 1000)
        repeat {
            options.MaxWait = min(250, max(1, (end - .now).milliseconds))
            if js_PublishAsyncComplete(context, &options) == NATS_OK { return true }
        } while ContinuousClock.now < end && !natsConnection_IsClosed(handle)
        // Neither acknowledgements nor timeouts came: the callbacks stopped (a closed connection). Taking the messages
        // back keeps libnats from starting a callback for them; then wait for one that had started already.
        var pending = natsMsgList()
        if js_PublishAsyncGetPendingList(&pending, context) == NATS_OK { natsMsgList_Destroy(&pending) }
        options.MaxWait = 5000
        return js_PublishAsyncComplete(context, &options) == NATS_OK
    }

    /// The acknowledgements in batch order, or the error of the first message of the `sent` without one.
    private func acknowledgements(
        of messages: [OutgoingMessage], _ outcomes: [PublishBatch.Outcome?], sent: Int, sendFailure: NATSError?
    ) throws -> [PublishAcknowledgement] {
        var acknowledgements: [PublishAcknowledgement] = []
        acknowledgements.reserveCapacity(sent)
        for index in 0..<sent {
            let what =
                "publishing message \(index + 1) of \(messages.count) to \(messages[index].subject) (\(index) "
                + "acknowledged before it)"
            switch outcomes[index] {
            case .acknowledged(let acknowledgement):
                acknowledgements.append(acknowledgement)
            case .failed(let status, let code, let text):
                throw NATSError(
                    what, call: "js_PublishMsgAsync", status: status, jetStreamCode: code, detail: text,
                    secrets: configuration.secrets
                ).acknowledged(before: index)
            case nil:
                let status = natsConnection_IsClosed(handle) ? NATS_CONNECTION_CLOSED : NATS_TIMEOUT
                throw NATSError(
                    what, call: "js_PublishAsyncComplete", status: status, jetStreamCode: jsErrCode(0),
                    detail: "no acknowledgement came"
                ).acknowledged(before: index)
            }
        }
        if let sendFailure { throw sendFailure.acknowledged(before: sent) }
        return acknowledgements
    }
}

/// What one batch publish learns from libnats' acknowledgement callbacks, by message index.
///
/// Threads: the thread of `CallThreads` that sends registers each message before sending it, then waits in
/// `js_PublishAsyncComplete` and reads `outcomes` once that returned. libnats runs the callbacks on the delivery thread
/// of the batch's `jsCtx` reply subscription (its own thread, one callback at a time; its timer thread queues the
/// timeouts there too). The Mutex hands the outcomes from one to the other; the awaiting task is resumed once, by
/// `CallThreads.run`, with what the sending thread returns.
private final class PublishBatch: Sendable {
    /// libnats' answer for one message.
    enum Outcome: Sendable {
        case acknowledged(PublishAcknowledgement)
        /// The status, JetStream code and text of `jsPubAckErr`.
        case failed(natsStatus, jsErrCode, String)
    }

    private struct State {
        /// Each message libnats holds, by the address of its `natsMsg`. An address comes back only after its
        /// message was destroyed, which happens after it left this table.
        var indexes: [UInt: Int] = [:]
        var outcomes: [Outcome?]
        var failed = false
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(outcomes: Array(repeating: nil, count: count)))
    }

    /// Whether a message was refused or timed out: sending more would be in vain.
    var failed: Bool { state.withLock { $0.failed } }

    /// What libnats answered, by message index (nil: nothing).
    var outcomes: [Outcome?] { state.withLock { $0.outcomes } }

    /// Registers `message` as message `index`.
    func expect(_ message: OpaquePointer, at index: Int) {
        state.withLock { $0.indexes[UInt(bitPattern: message)] = index }
    }

    /// Unregisters `message`, which libnats did not take.
    func forget(_ message: OpaquePointer) {
        _ = state.withLock { $0.indexes.removeValue(forKey: UInt(bitPattern: message)) }
    }

    private func record(_ outcome: Outcome, for message: OpaquePointer) {
        state.withLock { state in
            guard let index = state.indexes.removeValue(forKey: UInt(bitPattern: message)) else { return }
            state.outcomes[index] = outcome
            if case .failed = outcome { state.failed = true }
        }
    }

    /// libnats' callback for each message: an acknowledgement, or the failure (a refusal, a timeout, no responders).
    static let acknowledgementHandler: jsPubAckHandler = { _, message, acknowledgement, failure, closure in
        // With an acknowledgement handler the message is ours to destroy; after `record` unregistered it.
        defer { natsMsg_Destroy(message) }
        guard let message, let closure else { return }
        let batch = Unmanaged<PublishBatch>.fromOpaque(closure).takeUnretainedValue()
        if let acknowledgement {
            let ack = acknowledgement.pointee
            let stream = ack.Stream.map { String(cString: $0) } ?? ""
            batch.record(
                .acknowledged(PublishAcknowledgement(stream: stream, sequence: ack.Sequence, duplicate: ack.Duplicate)),
                for: message)
        } else if let failure {
            let text = failure.pointee.ErrText.map { String(cString: $0) } ?? ""
            batch.record(.failed(failure.pointee.Err, failure.pointee.ErrCode, text), for: message)
        }
    }
}
