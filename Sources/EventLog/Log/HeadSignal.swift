import Foundation
import Synchronization

/// Wakes live tails when the head moves: at once when this process commits; for commits of other processes on the
/// same data directory, one poll of the stored head every `pollInterval` serves every tail waiting.
///
/// A tail waiting costs nothing while nothing is committed: no timer of its own (a thousand idle live streams, each
/// looking again every 50 ms, were twenty thousand wake-ups and log reads a second).
final class HeadSignal: Sendable {
    private struct Waiter {
        var position: UInt64
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var head: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        var nextId: UInt64 = 0
        var polling = false
        /// Waits whose timeout came before they were registered: they return at once when they are.
        var expired: Set<UInt64> = []

        /// Removes and returns the waiters the head has moved past.
        mutating func takeReady() -> [CheckedContinuation<Void, Never>] {
            var ready: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in waiters {
                if waiter.position < head {
                    ready.append(waiter.continuation)
                    waiters.removeValue(forKey: id)
                }
            }
            return ready
        }
    }

    private let state = Mutex(State())
    /// The head as stored, other processes' commits included; nil when it cannot be read (the log is closed).
    private let storedHead: @Sendable () -> UInt64?

    /// How often the stored head is read while anyone waits.
    static let pollInterval = Duration.milliseconds(50)

    init(storedHead: @escaping @Sendable () -> UInt64?) {
        self.storedHead = storedHead
    }

    /// This process committed up to `head`.
    func publish(_ head: UInt64) {
        let ready = state.withLock { s in
            s.head = max(s.head, head)
            return s.takeReady()
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns when a commit moves the head past `position` — this process's at once, another process's within
    /// `pollInterval` — or, with a `timeout`, when it has passed, or when the task is cancelled.
    func wait(beyond position: UInt64, timeout: Duration? = nil) async {
        // Past it already (a follower that read a page and looks again): no waiter.
        guard
            let id = state.withLock({ s -> UInt64? in
                guard s.head <= position else { return nil }
                s.nextId += 1
                return s.nextId
            })
        else { return }
        let timer = timeout.map { timeout in
            Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self.resume(id, expiring: true)
            }
        }
        defer {
            timer?.cancel()
            _ = state.withLock { $0.expired.remove(id) }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (ready, startPolling) = state.withLock { s -> (Bool, Bool) in
                    if s.head > position || Task.isCancelled || s.expired.remove(id) != nil { return (true, false) }
                    s.waiters[id] = Waiter(position: position, continuation: continuation)
                    defer { s.polling = true }
                    return (false, !s.polling)
                }
                if ready { continuation.resume() }
                if startPolling { Task { await poll() } }
            }
        } onCancel: {
            resume(id)
        }
    }

    /// How many wait now (for tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Wakes the wait `id`; with `expiring`, a wait not registered yet returns as soon as it is.
    private func resume(_ id: UInt64, expiring: Bool = false) {
        let waiter = state.withLock { s in
            let waiter = s.waiters.removeValue(forKey: id)
            if waiter == nil && expiring { s.expired.insert(id) }
            return waiter
        }
        waiter?.continuation.resume()
    }

    /// While anyone waits: reads the stored head every `pollInterval` and wakes those it moved past — everyone when it
    /// cannot be read (the log was closed): they look again and meet the error themselves.
    private func poll() async {
        while true {
            try? await Task.sleep(for: Self.pollInterval)
            let anyone = state.withLock { !$0.waiters.isEmpty }
            let stored = anyone ? storedHead() : nil
            let (ready, more) = state.withLock { s -> ([CheckedContinuation<Void, Never>], Bool) in
                var ready: [CheckedContinuation<Void, Never>]
                if anyone && stored == nil {
                    ready = s.waiters.values.map(\.continuation)
                    s.waiters.removeAll()
                } else {
                    if let stored { s.head = max(s.head, stored) }
                    ready = s.takeReady()
                }
                if s.waiters.isEmpty { s.polling = false }
                return (ready, s.polling)
            }
            for waiter in ready { waiter.resume() }
            guard more else { return }
        }
    }
}
