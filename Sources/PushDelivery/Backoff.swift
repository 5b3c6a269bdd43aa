/// When a failed attempt is tried again: doubling waits from `base`, at most `ceiling`, each drawn between half and
/// all of it (jitter, so devices failed together are not retried together); a provider's `Retry-After` wins when
/// it asks for longer.
public struct Backoff: Sendable, Hashable {
    public var base: Duration
    public var ceiling: Duration

    public init(base: Duration = .seconds(1), ceiling: Duration = .seconds(3600)) {
        self.base = base
        self.ceiling = ceiling
    }

    /// The wait after failed attempt `attempt` (1 for the first).
    public func wait(after attempt: Int, retryAfter: Duration?) -> Duration {
        let doubling = base * (1 << min(max(attempt - 1, 0), 30))
        let full = min(doubling, ceiling)
        let drawn = full * Double.random(in: 0.5...1.0)
        guard let retryAfter else { return drawn }
        return max(drawn, retryAfter)
    }
}
