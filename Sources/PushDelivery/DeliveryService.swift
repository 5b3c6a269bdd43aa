import EventLog
import Foundation
import Logging
import Metrics
import Muster
import MusterWire
import PushProviders
import ServiceLifecycle
import Synchronization

/// Sends the outbox while the server runs: every due delivery goes to its source's provider, at most
/// `concurrency` at once, and each attempt's outcome is recorded as an event (delivered, retried with backoff,
/// the device pruned, refused, expired). The outbox is a projection of the log, so a restart — even after a
/// kill in the middle of sending — resumes exactly what was pending; an attempt in flight at the crash is sent
/// again with the same collapse id, so the platform folds the copy.
public struct DeliveryService: Service {
    /// How the service is tuned.
    public struct Options: Sendable {
        /// Most attempts in flight at once.
        public var concurrency: Int = 256
        public var backoff = Backoff()
        /// Longest wait between two looks at the outbox (commits of this process wake it sooner).
        public var longestWait: Duration = .seconds(1)

        public init() {}
    }

    let log: EventLog
    let deliveries: Deliveries
    let providers: ProviderCache
    let options: Options
    let metrics: DeliveryMetrics
    let logger: Logger
    /// Sends to MQTT devices: the server's broker connection (`serve --mqtt`); nil: they wait for one.
    let mqtt: (any PushProvider)?

    /// A service sending `log`'s outbox through providers that `factory` makes from each source and its secret, and
    /// to MQTT devices through `mqtt`.
    public init(
        log: EventLog, factory: @escaping @Sendable (PushSourceConfigured, [UInt8]) async throws -> any PushProvider,
        options: Options = Options(), metrics: any MetricsFactory, logger: Logger, mqtt: (any PushProvider)? = nil
    ) {
        self.mqtt = mqtt
        self.log = log
        self.deliveries = Deliveries(log: log)
        self.providers = ProviderCache(sources: PushSources(log: log), factory: factory)
        self.options = options
        self.metrics = DeliveryMetrics(factory: metrics)
        self.logger = logger
    }

    public func run() async throws {
        let slots = Slots(options.concurrency)
        let inFlight = InFlight()
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                let head = log.head
                var started = 0
                do {
                    // Outcomes recorded before this read are in it; those recorded during it may not be.
                    let recorded = inFlight.settledSoFar()
                    let due = try deliveries.due(at: Self.now(), limit: options.concurrency * 2)
                    inFlight.forget(recorded)
                    for delivery in due {
                        let key =
                            Array(delivery.namespace.utf8) + [0] + Array(delivery.messageId.uuidString.utf8)
                            + [0] + Array(delivery.deviceId.utf8)
                        guard inFlight.insert(key) else { continue }
                        await slots.acquire()
                        started += 1
                        group.addTask {
                            if await attempt(delivery) {
                                inFlight.settle(key)
                                slots.release()
                            } else {
                                slots.release()
                                // An attempt whose outcome could not be recorded waits before it is tried again.
                                try? await Task.sleep(for: .seconds(5))
                                inFlight.remove(key)
                            }
                        }
                    }
                    metrics.outboxDepth(try deliveries.pendingCount())
                } catch {
                    logger.error("reading the push outbox failed: \(error)")
                }
                guard started == 0 else { continue }
                var wait = options.longestWait
                if let next = try? deliveries.nextDue() {
                    wait = min(wait, .microseconds(max(next - Self.now(), 0)))
                }
                // Nothing due but what is in flight: an outcome's commit wakes the loop.
                let pause = wait > .zero ? wait : options.longestWait
                await cancelWhenGracefulShutdown {
                    await log.waitForCommit(beyond: head, timeout: pause)
                }
            }
        }
        await providers.shutdown()
    }

    /// One attempt of one delivery, its outcome recorded; false when recording failed (the store refused).
    private func attempt(_ delivery: Delivery) async -> Bool {
        let attempt = delivery.attempts + 1
        let platform = delivery.platform.rawValue
        do {
            let now = Self.now()
            guard now < delivery.expiresAt else {
                try await deliveries.expired(delivery, attempts: delivery.attempts)
                metrics.attempt(platform: platform, outcome: "expired")
                return true
            }
            guard let token = try deliveries.token(for: delivery) else {
                try await deliveries.failed(
                    delivery, attempt: attempt, status: nil,
                    reason: "the device is no longer registered for \(platform) pushes", nextAttemptAt: nil)
                metrics.attempt(platform: platform, outcome: "unregistered")
                return true
            }
            let provider: any PushProvider
            if delivery.platform == .mqtt {
                provider = mqtt ?? Self.noBroker
            } else {
                do {
                    provider = try await providers.provider(for: delivery).provider
                } catch let unavailable as ProviderCache.Unavailable {
                    try await deliveries.failed(
                        delivery, attempt: attempt, status: nil, reason: unavailable.reason, nextAttemptAt: nil)
                    metrics.attempt(platform: platform, outcome: "rejected")
                    return true
                }
            }
            let (push, carried) = try content(of: delivery, token: token, fitting: provider)
            let outcome = await provider.send(push)
            metrics.attempt(platform: platform, outcome: outcome.label)
            switch outcome {
            case .delivered(let providerId):
                try await deliveries.delivered(delivery, attempt: attempt, providerId: providerId, carried: carried)
                metrics.delivered(platform: platform, afterMicroseconds: Self.now() - delivery.sentAt)
            case .retry(let status, let reason, let after):
                let wait = options.backoff.wait(after: attempt, retryAfter: after)
                let next = min(Self.now() + wait.microseconds, delivery.expiresAt)
                try await deliveries.failed(
                    delivery, attempt: attempt, status: status, reason: reason, nextAttemptAt: next)
            case .unregistered(let status, let reason):
                try await deliveries.unregistered(delivery, attempt: attempt, status: status, reason: reason)
            case .rejected(let status, let reason):
                try await deliveries.failed(
                    delivery, attempt: attempt, status: status, reason: reason, nextAttemptAt: nil)
            }
            return true
        } catch {
            logger.error(
                "push delivery of message \(delivery.messageId) to device \(delivery.deviceId) could not be recorded: \(error)"
            )
            return false
        }
    }

    /// What the alert replacing a withdrawn message's says under its title.
    static let withdrawnAlert = "Withdrawn by its sender: there is nothing to answer."

    /// The push for a delivery: the whole message when it fits the provider's and the namespace's limits, else its
    /// id to fetch; for a location request, a silent push asking for the location; for an area notice, its title
    /// and body (silent for a server notification) and its id; for a withdrawal, the message's title over a line
    /// saying it was withdrawn, with the message's collapse id, so it takes the place of the message's alert.
    private func content(of delivery: Delivery, token: String, fitting provider: any PushProvider) throws
        -> (Push, PushDelivered.Carried)
    {
        let expiresAt = Date(timeIntervalSince1970: Double(delivery.expiresAt) / 1_000_000)
        if delivery.kind == .locationRequest {
            let notice = Array(try MusterJSON.encoder().encode(PushNotice(kind: .locationRequest)))
            let push = Push(
                token: token, title: "", body: "", notice: notice,
                collapseId: delivery.messageId.uuidString.lowercased(),
                expiresAt: expiresAt, silent: true)
            return (push, .direct)
        }
        if delivery.kind == .areaNotice {
            let handed = try deliveries.areaNotice(of: delivery)
            let silent = handed.action == .notifyServer
            let notice = PushNotice(
                kind: .areaNotice, title: silent ? nil : handed.title, body: silent ? nil : handed.body,
                noticeId: handed.noticeId, deviceId: handed.deviceId)
            let push = Push(
                token: token, title: silent ? "" : handed.title, body: silent ? "" : handed.body,
                notice: Array(try MusterJSON.encoder().encode(notice)),
                collapseId: delivery.messageId.uuidString.lowercased(), expiresAt: expiresAt, silent: silent)
            return (push, .direct)
        }
        let message = try deliveries.message(of: delivery)
        if delivery.kind == .withdrawal {
            let notice = PushNotice(
                kind: .withdrawn, messageId: message.messageId, title: message.title, body: Self.withdrawnAlert)
            let push = Push(
                token: token, title: message.title, body: Self.withdrawnAlert,
                notice: Array(try MusterJSON.encoder().encode(notice)),
                collapseId: delivery.messageId.uuidString.lowercased(), expiresAt: expiresAt, quiet: true)
            return (push, .withdrawal)
        }
        var push = Push(
            token: token, title: message.title, body: message.body,
            notice: try deliveries.notice(for: message, whole: true),
            collapseId: delivery.messageId.uuidString.lowercased(), expiresAt: expiresAt)
        // Whole when it fits both the provider's limit and the namespace's pushSizeLimit; an MQTT device always gets
        // it whole (it shows the form from the push alone, and the push services' limit is not the broker's).
        let limit = delivery.platform == .mqtt ? Int.max : try deliveries.pushSizeLimit(namespace: delivery.namespace)
        if push.notice.count <= limit, provider.fits(push) {
            return (push, .direct)
        }
        push.notice = try deliveries.notice(for: message, whole: false)
        return (push, .indirect)
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

    /// Without a broker connection MQTT deliveries are tried again later: a restart with `--mqtt` sends them.
    static let noBroker: any PushProvider = NoBroker()

    private struct NoBroker: PushProvider {
        func fits(_ push: Push) -> Bool { true }
        func send(_ push: Push) async -> PushOutcome {
            .retry(status: nil, reason: "no MQTT broker connection: start the server with --mqtt", after: nil)
        }
        func shutdown() async throws {}
    }
}

extension Duration {
    /// The duration in whole microseconds.
    var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}

/// The deliveries being attempted now, and those whose outcome was recorded since the outbox was last read, so a
/// look at the outbox does not start one twice: a read taken just before an outcome's commit still lists that
/// delivery as pending, and the loop may reach it after its attempt has finished.
final class InFlight: Sendable {
    private struct Keys {
        var running: Set<[UInt8]> = []
        var settled: Set<[UInt8]> = []
    }
    private let keys = Mutex(Keys())

    /// False when the key is in flight, or settled since before the last read of the outbox.
    func insert(_ key: [UInt8]) -> Bool {
        keys.withLock { keys in !keys.settled.contains(key) && keys.running.insert(key).inserted }
    }

    /// The attempt's outcome is recorded: not to be started again from a read taken before it.
    func settle(_ key: [UInt8]) {
        keys.withLock { keys in
            keys.running.remove(key)
            keys.settled.insert(key)
        }
    }

    /// The attempt ended without a recorded outcome: the delivery may be started again.
    func remove(_ key: [UInt8]) { _ = keys.withLock { $0.running.remove(key) } }

    /// The keys settled so far; a read of the outbox begun after this shows their outcomes.
    func settledSoFar() -> Set<[UInt8]> { keys.withLock { $0.settled } }

    /// Forgets settled keys once a read that shows their outcomes was taken.
    func forget(_ settled: Set<[UInt8]>) {
        guard !settled.isEmpty else { return }
        keys.withLock { $0.settled.subtract(settled) }
    }
}
