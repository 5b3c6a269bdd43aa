import CNATS
import Foundation

/// The threads libnats' blocking calls run on: a publish waits for its acknowledgement, a fetch for messages, a connect
/// for the server, each up to its timeout, and none of that may hold a thread of Swift's cooperative pool.
///
/// Not one thread per connection: a publish stuck for its whole timeout while a stream has no leader must not hold up
/// the lease's renewal on the same connection. Not dispatch's global queues either: on Linux they have about as many
/// threads as cores, so two stuck calls would stop every other one. So: an idle thread takes each call, and when none
/// is idle a new one starts; a thread idle for `idleLifetime` ends (after freeing libnats' memory for it). There are
/// never more threads than calls blocked at once, plus the idle ones.
final class CallThreads: @unchecked Sendable {
    /// The threads all connections share.
    static let shared = CallThreads()

    // All of it guarded by `condition`.
    private let condition = NSCondition()
    private var calls: [@Sendable () -> Void] = []
    private var idle = 0
    private let idleLifetime: TimeInterval

    init(idleLifetime: TimeInterval = 30) {
        self.idleLifetime = idleLifetime
    }

    /// Runs `call` on one of the threads and returns its result.
    func run<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit { continuation.resume(with: Result { try call() }) }
        }
    }

    /// Runs `call` on one of the threads without waiting for it (freeing C objects whose release may block).
    func detach(_ call: @escaping @Sendable () -> Void) {
        submit(call)
    }

    private func submit(_ call: @escaping @Sendable () -> Void) {
        condition.lock()
        calls.append(call)
        // More calls waiting than threads waiting for calls: one more thread. A busy thread may come back for it
        // first; then the new one just idles and ends.
        let start = calls.count > idle
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = "nats-call"
            thread.start()
        }
    }

    /// A thread's life: take calls until none came for `idleLifetime`.
    private func work() {
        condition.lock()
        while true {
            while calls.isEmpty {
                idle += 1
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleLifetime))
                idle -= 1
                if !signalled && calls.isEmpty {
                    condition.unlock()
                    // libnats keeps error state per thread; a thread that ends must free it.
                    nats_ReleaseThreadMemory()
                    return
                }
            }
            var call: (@Sendable () -> Void)? = calls.removeFirst()
            condition.unlock()
            call!()
            // Released before the lock is taken again: the call may hold the last reference to a connection, whose
            // deinit submits a call of its own.
            call = nil
            condition.lock()
        }
    }
}
