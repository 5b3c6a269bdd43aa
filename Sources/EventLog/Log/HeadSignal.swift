import Foundation
import Synchronization

/// Wakes live tails when this process commits; tails of other processes' commits poll.
final class HeadSignal: Sendable {
    private struct State {
        var head: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextId: UInt64 = 0
    }
    private let state = Mutex(State())

    func publish(_ head: UInt64) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.head = max(s.head, head)
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for w in waiters { w.resume() }
    }

    /// Returns when a commit moves the head past `position`, or after `timeout` (to notice other processes).
    func wait(beyond position: UInt64, timeout: Duration) async {
        // Past it already (a follower that read a page and looks again): no timer, no waiter.
        guard
            let id = state.withLock({ s -> UInt64? in
                guard s.head <= position else { return nil }
                s.nextId += 1
                return s.nextId
            })
        else { return }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.resume(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { s -> Bool in
                    if s.head > position || Task.isCancelled { return true }
                    s.waiters[id] = c
                    return false
                }
                if ready { c.resume() }
            }
        } onCancel: {
            self.resume(id)
        }
        timer.cancel()
    }

    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
