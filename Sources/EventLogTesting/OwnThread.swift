import Foundation

/// Runs `work`, which blocks (a `poll`, a `waitpid`, a pipe read), on a thread of its own and awaits its result.
///
/// Never block on Swift's cooperative pool or dispatch's global queues: on Linux they share about as many threads as
/// cores, so two blocked tests on a two-core machine stop every other task — including the in-process servers the
/// blocked ones wait for (a CI run stalled 29 s that way, and five tests failed their deadlines).
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, Error>) in
        Thread.detachNewThread {
            done.resume(with: Result { try work() })
        }
    }
}

/// ``onOwnThread(_:)`` for work that cannot fail.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
        Thread.detachNewThread {
            done.resume(returning: work())
        }
    }
}
