import Foundation
import Logging
import Muster
import ServiceLifecycle

/// Keeps the rules engine's promises while the server runs: calls the server hooks a restart left
/// waiting, then evaluates every latched rule when its latch time ends (re-armed from the log after
/// a restart, since the latches are state of the `rules` projection).
struct RuleTimerService: Service {
    let engine: RuleEngine
    let logger: Logger
    /// Longest wait between two looks, so a latch armed meanwhile is seen soon enough.
    static let longestWait: Duration = .seconds(1)

    func run() async throws {
        do {
            try await engine.resumeServerHooks()
        } catch {
            logger.error("resuming server hooks failed: \(error)")
        }
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await engine.fireDueLatches()
                try await engine.expireBeaconRegions()
            } catch {
                logger.error("firing latched rules or leaving silent beacon regions failed: \(error)")
            }
            var wait = Self.longestWait
            if let next = try? engine.nextLatchEnd() {
                let micros = max(next - Int64(Date().timeIntervalSince1970 * 1_000_000), 0)
                wait = min(wait, .microseconds(micros))
            }
            // Only the sleep is cut short by a shutdown: a hook call in flight finishes.
            let pause = wait
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
        }
    }
}
