import Metrics
import PushProviders

/// What the delivery service tells Prometheus: attempts by platform and outcome, time from send to delivery,
/// the outbox's depth.
struct DeliveryMetrics: Sendable {
    let factory: any MetricsFactory

    func attempt(platform: String, outcome: String) {
        Counter(
            label: "muster_push_deliveries_total", dimensions: [("platform", platform), ("outcome", outcome)],
            factory: factory
        ).increment()
    }

    func delivered(platform: String, afterMicroseconds micros: Int64) {
        Metrics.Timer(
            label: "muster_push_send_to_delivery_seconds", dimensions: [("platform", platform)], factory: factory
        ).recordNanoseconds(max(micros, 0) * 1000)
    }

    func outboxDepth(_ pending: Int) {
        Gauge(label: "muster_push_outbox_pending", factory: factory).record(Double(pending))
    }
}

extension PushOutcome {
    /// The outcome's name in metrics.
    var label: String {
        switch self {
        case .delivered: "delivered"
        case .retry: "retry"
        case .unregistered: "unregistered"
        case .rejected: "rejected"
        }
    }
}
