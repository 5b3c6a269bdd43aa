/// Tries `attempt` every 20 ms until it returns a value, for at most `timeout` (a minute unless given: a bound for a loaded machine, not a measure), and returns that value; then throws
/// `WaitFailure` naming what it waited for and the last error an attempt threw. An attempt that throws is tried again,
/// unless it throws a `WaitFailure` (a condition that can no longer come true), which ends the wait at once.
///
/// For waiting on another process or thread to reach a state that proves what a test checks: never a sleep standing
/// in for the wait.
@discardableResult
public func eventually<T>(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(60), _ attempt: () async throws -> T?
) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    var lastError: (any Error)?
    while true {
        do {
            if let value = try await attempt() { return value }
        } catch let failure as WaitFailure {
            throw failure
        } catch {
            lastError = error
        }
        guard ContinuousClock.now < deadline else {
            throw WaitFailure(
                "\(what()) did not happen within \(timeout); last error: \(lastError.map { "\($0)" } ?? "none")")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// A wait that failed, or a condition that can no longer come true.
public struct WaitFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
