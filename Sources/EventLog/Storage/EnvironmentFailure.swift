import Synchronization

/// Whether LMDB has marked an environment failed (`MDB_PANIC`, after a meta page write the disk refused): from then on
/// every transaction of this process fails, reads too, and only opening the data directory again recovers it. The
/// first failure is kept; `wait()` returns it to whoever watches (the server, which then stops so that its supervisor
/// starts it again).
final class EnvironmentFailure: Sendable {
    private struct State {
        var error: StoreError?
        var waiters: [Int: CheckedContinuation<StoreError?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Keeps the first failure and hands it to every waiter.
    func record(_ error: StoreError) {
        let waiters = state.withLock { state -> [CheckedContinuation<StoreError?, Never>] in
            guard state.error == nil else { return [] }
            state.error = error
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: error) }
    }

    /// The failure: now if there is one, else when it happens; nil when the waiting task is cancelled.
    func wait() async -> StoreError? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> StoreError?? in
                    if let error = state.error { return .some(error) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
