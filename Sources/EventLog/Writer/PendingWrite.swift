import Synchronization

/// The outcome of a write handed to the writer with `EventLog.submit`: its result once the transaction holding it
/// is durable, or why it failed. Awaited by one caller.
public final class PendingWrite<T: Sendable>: Sendable {
    private enum State {
        case waiting
        case awaited(CheckedContinuation<(T, UInt64), any Error>)
        case settled(Result<T, any Error>, appendedThrough: UInt64)
    }
    private let state = Mutex(State.waiting)
    /// The log's gate when the write was handed over: `value` waits for its acknowledgement too.
    private let gate: (any WriteGate)?

    init(gate: (any WriteGate)?) { self.gate = gate }

    /// The write's result, once durable (and, in a replicated log, acknowledged); throws what `perform` would have
    /// thrown.
    public var value: T {
        get async throws {
            let (value, appendedThrough) = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(T, UInt64), any Error>) in
                let settled = state.withLock { state -> Result<(T, UInt64), any Error>? in
                    switch state {
                    case .waiting:
                        state = .awaited(continuation)
                        return nil
                    case .settled(let result, let through): return result.map { ($0, through) }
                    case .awaited: preconditionFailure("a PendingWrite is awaited by one caller")
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
            if appendedThrough > 0, let gate { try await gate.acknowledged(through: appendedThrough) }
            return value
        }
    }

    /// Called once by the writer with the outcome and the last position the write appended (0 for none).
    func settle(_ result: Result<T, any Error>, appendedThrough: UInt64) {
        let waiting = state.withLock { state -> CheckedContinuation<(T, UInt64), any Error>? in
            defer { state = .settled(result, appendedThrough: appendedThrough) }
            if case .awaited(let continuation) = state { return continuation }
            return nil
        }
        waiting?.resume(with: result.map { ($0, appendedThrough) })
    }
}
