import EventLog
import Foundation
import Logging
import Muster
import MusterHTTP
import PushDelivery
import PushProviders
import PushTesting

/// The Muster side of push-fanout: the delivery service running as `muster serve` runs it (same type, options
/// and metrics factory), one send to every user, and the times until the endpoint took every push and until the
/// log records every delivery as delivered.
struct FanoutRun {
    var messageId: UUID
    var sendSeconds: Double
    var receivedSeconds: Double
    var recordedSeconds: Double
    /// Requests the endpoint saw during the run (more than the users when attempts were retried).
    var requests: Int
    /// Pushes the endpoint took (decrypted and answered 201): more than the users when one went twice.
    var pushes: Int
    /// Deliveries that needed more than one attempt, and the most common reason their last failed attempt gave.
    var retried: Int
    var retryReason: String?

    static func run(
        users: Int, log: EventLog, endpoint: WebPushEndpoint, options: DeliveryService.Options,
        connections: ProviderConnectionOptions
    ) async throws -> FanoutRun {
        let service = DeliveryService(
            log: log, factory: { try await PushSourceSetup.provider(for: $0, secret: $1, options: connections) },
            options: options, metrics: ServerMetrics().factory, logger: Logger(label: "bench-push"))
        let running = Task { try await service.run() }
        let requestsBefore = endpoint.requestCount
        let receivedBefore = endpoint.receivedCount
        let deliveries = Deliveries(log: log)
        do {
            let start = ContinuousClock.now
            let received = Task {
                await endpoint.waitForPushes(receivedBefore + users)
                return seconds(since: start)
            }
            let sent = try await Notifications(log: log).send(
                all: true, title: PushFanout.title, body: PushFanout.body, payload: SendToAll.payload, actor: "bench")
            let sendSeconds = seconds(since: start)
            guard sent.recipients.count == users, let messageId = sent.messageIds.first else {
                throw NotDelivered("sent to \(sent.recipients.count) users, expected \(users)")
            }
            let deadline = start + .seconds(max(120, users / 500))
            while try deliveries.pendingCount() > 0 {
                guard ContinuousClock.now < deadline else {
                    throw NotDelivered(
                        "\(try deliveries.pendingCount()) deliveries still pending after \(deadline - start)")
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            let recordedSeconds = seconds(since: start)
            let all = try deliveries.list()
            let delivered = all.filter { $0.status == .delivered }.count
            guard delivered == users else {
                let other = all.first { $0.status != .delivered }
                throw NotDelivered(
                    "\(delivered) of \(users) deliveries were recorded as delivered; one is \(other?.status.rawValue ?? "-"): "
                        + "\(other?.lastStatus.map(String.init) ?? "no status") \(other?.lastReason ?? "")")
            }
            let retried = all.filter { $0.attempts > 1 }
            let reasons = Dictionary(grouping: retried) {
                "\($0.lastStatus.map(String.init) ?? "no status") \($0.lastReason ?? "")"
            }
            let receivedSeconds = await received.value
            running.cancel()
            _ = await running.result
            return FanoutRun(
                messageId: messageId, sendSeconds: sendSeconds, receivedSeconds: receivedSeconds,
                recordedSeconds: recordedSeconds, requests: endpoint.requestCount - requestsBefore,
                pushes: endpoint.receivedCount - receivedBefore,
                retried: retried.count, retryReason: reasons.max { $0.value.count < $1.value.count }?.key)
        } catch {
            running.cancel()
            _ = await running.result
            throw error
        }
    }
}
