import EventLog
import Foundation
import Metrics
import Prometheus
import Synchronization

/// The server's metrics in Prometheus' text format: requests by route and status with their latency, the live
/// streams open, and the store's state (log head, projection lag, events by namespace and type) read when scraped.
public struct ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    /// The factory the server's metrics (and the delivery service's) are made with.
    public let factory: PrometheusMetricsFactory
    /// Server-sent event streams open now.
    private let openStreams = OpenStreams()
    /// The counter and timer of each method, route and status seen: one lookup per request instead of asking the
    /// registry for both (a lock, a validation of the names and a search each).
    private let requestMetrics = RequestMetrics()

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5),
        ]
        self.factory = factory
    }

    /// Records one answered request.
    func request(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestMetrics.Key(method: method, route: route, status: status)
        let (counter, timer) = requestMetrics.known.withLock { known in
            if let found = known[key] { return found }
            let dimensions = [("method", method), ("route", route), ("status", String(status))]
            let made = (
                Counter(label: "muster_http_requests_total", dimensions: dimensions, factory: factory),
                Metrics.Timer(
                    label: "muster_http_request_duration_seconds", dimensions: [("method", method), ("route", route)],
                    factory: factory)
            )
            known[key] = made
            return made
        }
        counter.increment()
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// Records one commit of the writer (give it to `EventLog.Configuration.commitObserver`).
    public func commit(_ commit: EventLog.Commit) {
        Recorder(label: "muster_writer_batch_commands", factory: factory).record(commit.jobs)
        Recorder(label: "muster_writer_batch_events", factory: factory).record(Int64(commit.events))
        Metrics.Timer(label: "muster_writer_commit_seconds", factory: factory).recordNanoseconds(
            commit.duration.nanoseconds)
    }

    /// A live stream (`text/event-stream`) opened or closed. The gauge is set when scraped: set here, two streams
    /// opening and closing at once could leave it at the older count.
    func stream(opened: Bool) {
        openStreams.count.add(opened ? 1 : -1, ordering: .relaxed)
    }

    /// The Prometheus exposition, after reading the store's gauges.
    func exposition(log: EventLog) -> [UInt8] {
        let head = log.head
        Gauge(
            label: "muster_build_info",
            dimensions: [("version", MusterRelease.version), ("store_format", "\(log.configuration.formatVersion)")],
            factory: factory
        ).record(1)
        Gauge(label: "muster_log_head", factory: factory).record(Double(head))
        if let states = try? log.read({ try $0.projectionStatuses() }) {
            for state in states {
                Gauge(label: "muster_projection_lag_events", dimensions: [("projection", state.name)], factory: factory)
                    .record(Double(head &- min(head, state.checkpoint)))
            }
        }
        // Events recorded, by namespace and type (rule decisions are `RuleEvaluated`), as the statistics projection
        // has counted them so far: rate() of it is events per second.
        if let rows = try? log.read({ try LogStatistics.rows($0.projection(LogStatistics.name)) }) {
            for row in rows {
                Gauge(
                    label: "muster_log_events", dimensions: [("namespace", row.namespace), ("type", row.type)],
                    factory: factory
                ).record(Double(row.events))
            }
        }
        Gauge(label: "muster_sse_connections", factory: factory).record(
            Double(openStreams.count.load(ordering: .relaxed)))
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// The request metrics made so far: shared by every copy of the metrics.
private final class RequestMetrics: Sendable {
    struct Key: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    let known = Mutex<[Key: (Metrics.Counter, Metrics.Timer)]>([:])
}

/// How many live streams are open: shared by every copy of the metrics.
private final class OpenStreams: Sendable {
    let count = Atomic<Int>(0)
}
