import Synchronization

/// The outcome of a write handed to the writer with `EventLog.submit`: its result once the transaction holding it
/// is durable, or why it failed. Awaited by one caller.
public final class PendingWrite<T: Sendable>: Sendable {
    private enum State {
        case waiting
        case awaited(CheckedContinuation<T, any Error>)
        case settled(Result<T, any Error>)
    }
    private let state = Mutex(State.waiting)

    init() {}

    /// The write's result, once durable; throws what `perform` would have thrown.
    public var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled = state.withLock { state -> Result<T, any Error>? in
                    switch state {
                    case .waiting:
                        state = .awaited(continuation)
                        return nil
                    case .settled(let result): return result
                    case .awaited: preconditionFailure("a PendingWrite is awaited by one caller")
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }

    /// Called once by the writer with the outcome.
    func settle(_ result: Result<T, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
            defer { state = .settled(result) }
            if case .awaited(let continuation) = state { return continuation }
            return nil
        }
        waiting?.resume(with: result)
    }
}
