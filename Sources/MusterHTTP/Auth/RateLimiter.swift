import Foundation
import Hummingbird
import Synchronization

/// A token bucket per caller (bearer token, else remote address): `rate` requests per second on
/// average, bursts up to `burst`; above it a 429 with `Retry-After`.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let rate: Double
    let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// Takes one request's token; returns the seconds to wait when there is none.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            if buckets.count > 100_000 { buckets.removeAll(keepingCapacity: true) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}

struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext
    let limiter: RateLimiter
    let configuration: ServerConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let key = request.headers[.authorization] ?? configuration.clientAddress(request, context) ?? "-"
        if let wait = limiter.take(key) {
            throw APIError(
                .tooManyRequests, "throttled",
                "more than \(limiter.rate.formatted()) requests per second; slow down and retry in \(wait) s",
                retryAfter: wait
            )
        }
        return try await next(request, context)
    }
}
