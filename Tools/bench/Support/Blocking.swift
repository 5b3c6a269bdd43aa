import Foundation

/// Runs blocking work (LMDB loops, zstd, child processes) on a thread of its own, so that neither the
/// cooperative pool nor the timed Muster tasks share a thread with it.
func onThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Seconds elapsed on the monotonic clock since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}
