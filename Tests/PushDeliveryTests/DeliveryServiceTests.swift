import EventLog
import EventLogTesting
import Foundation
import Logging
import Metrics
import Muster
import MusterWire
import PushDelivery
import PushProviders
import PushTesting
import ServiceLifecycle
import Testing

/// The delivery service against a local Web Push endpoint that decrypts every push and checks its VAPID
/// signature: what a person's browser receives, and what the log records of each attempt.
@Suite struct DeliveryServiceTests {
    static let payload = Data(#"{"responseTopic": "/shifts", "fields": [{"type": "text", "label": "When?"}]}"#.utf8)

    /// A data directory with user ann, a Web Push source and ann's browser subscribed at `endpoint`; the
    /// delivery service running until `body` returns.
    func withService(
        _ endpoint: WebPushEndpoint, _ body: (EventLog, WebPushEndpoint.Subscription) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory("delivery")
        defer { directory.remove() }
        let log = try Fixtures.log(in: directory.url)
        defer { log.close() }
        let subscription = endpoint.subscribe()
        try await Fixtures.annWithABrowser(in: log, subscription: subscription.json)
        var options = DeliveryService.Options()
        options.backoff = Backoff(base: .milliseconds(10), ceiling: .milliseconds(50))
        let connections = ProviderConnectionOptions(timeout: .seconds(5))
        let service = DeliveryService(
            log: log, factory: { try await PushSourceSetup.provider(for: $0, secret: $1, options: connections) },
            options: options, metrics: NOOPMetricsHandler.instance, logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        defer { running.cancel() }
        try await body(log, subscription)
        running.cancel()
        _ = await running.result
    }

    func send(_ log: EventLog) async throws -> UUID {
        try await Notifications(log: log).send(
            to: ["ann"], title: "Shift", body: "Can you come?", payload: Self.payload
        )
        .messageIds[0]
    }

    /// Waits, commit by commit, until the message's delivery is no longer pending (at most 30 s): the message's own,
    /// or once it was withdrawn, the withdrawal's.
    func settled(_ log: EventLog, _ messageId: UUID) async throws -> Delivery {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let head = log.head
            if let delivery = try Deliveries(log: log).list(messageId: messageId).first, delivery.status != .pending {
                return delivery
            }
            await log.waitForCommit(beyond: head, timeout: .milliseconds(200))
        }
        throw DeliveryTimeout(messageId: messageId)
    }

    struct DeliveryTimeout: Error { var messageId: UUID }

    @Test func aSentMessageReachesTheBrowserWholeAndTheLogSaysWhere() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        try await withService(endpoint) { log, subscription in
            let id = try await send(log)
            let delivery = try await settled(log, id)
            #expect(delivery.status == .delivered)
            #expect(delivery.attempts == 1)
            let push = try #require(endpoint.received.first)
            #expect(push.subscription == subscription.id)
            #expect(delivery.providerId == push.location)
            let plaintext = try JSONSerialization.jsonObject(with: Data(push.plaintext)) as? [String: Any]
            #expect(plaintext?["title"] as? String == "Shift")
            let muster = try JSONSerialization.data(withJSONObject: try #require(plaintext?["muster"]))
            let notice = try MusterJSON.decoder().decode(PushNotice.self, from: muster)
            #expect(notice.kind == .message && notice.messageId == id)
            // Direct: the whole message, as GET /api/v1/messages/{id} gives it.
            #expect(notice.message?.payload["responseTopic"] == .string("/shifts"))
            #expect(push.topic?.isEmpty == false)
        }
    }

    @Test func aDeliveredMessageWithdrawnIsReplacedInTheBrowserByAnAlertSayingSo() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        try await withService(endpoint) { log, subscription in
            let id = try await send(log)
            #expect(try await settled(log, id).status == .delivered)

            try await Notifications(log: log).withdraw([id], actor: "ada")

            let withdrawal = try await settled(log, id)
            #expect(withdrawal.kind == .withdrawal && withdrawal.status == .delivered)
            #expect(endpoint.receivedCount == 2)
            let (message, withdrawn) = (endpoint.received[0], endpoint.received[1])
            #expect(withdrawn.subscription == subscription.id)
            // The same topic: a push service still holding the message's push for an offline browser replaces it.
            #expect(withdrawn.topic == message.topic && withdrawn.topic?.isEmpty == false)
            let plaintext = try JSONSerialization.jsonObject(with: Data(withdrawn.plaintext)) as? [String: Any]
            #expect(plaintext?["title"] as? String == "Shift")
            #expect(plaintext?["body"] as? String == "Withdrawn by its sender: there is nothing to answer.")
            let muster = try JSONSerialization.data(withJSONObject: try #require(plaintext?["muster"]))
            let notice = try MusterJSON.decoder().decode(PushNotice.self, from: muster)
            #expect(notice.kind == .withdrawn && notice.messageId == id && notice.message == nil)
        }
    }

    @Test func anAreaNotificationHandedToTheBrowsersAppIsPushedToItWithTheNoticesId() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        try await withService(endpoint) { log, _ in
            try await Settings(log: log).set(.automaticUserNotifications, to: "false")
            let shop = Area(
                id: "shop", region: .geofence(latitude: 48.87, longitude: 2.33, radius: 50), name: "Shop",
                timeZone: "Europe/Paris",
                rules: [AreaRule(id: "r", trigger: "on_entry", action: AreaRule.Action(notifyUser: "Welcome!"))])
            try await Areas(log: log).define([shop])
            let engine = RuleEngine(log: log)
            _ = try await engine.report(
                RuleEngine.LocationReport(user: "ann", deviceId: "firefox", latitude: 48.87, longitude: 2.33))
            let handed = try #require(try AreaNotices(engine: engine).pending(user: "ann", deviceId: "firefox").first)
            let delivery = try await settled(log, handed.noticeId)
            #expect(delivery.kind == .areaNotice)
            #expect(delivery.status == .delivered)
            let push = try #require(endpoint.received.first)
            let plaintext = try JSONSerialization.jsonObject(with: Data(push.plaintext)) as? [String: Any]
            #expect(plaintext?["title"] as? String == handed.title)
            #expect(plaintext?["body"] as? String == "Welcome!")
            let muster = try JSONSerialization.data(withJSONObject: try #require(plaintext?["muster"]))
            let notice = try MusterJSON.decoder().decode(PushNotice.self, from: muster)
            #expect(notice.kind == .areaNotice)
            #expect(notice.noticeId == handed.noticeId && notice.deviceId == "firefox")
            #expect(notice.messageId == nil)
            // Still waiting for the app: the push tells it, performing or dismissing settles it.
            #expect(try AreaNotices(engine: engine).pending(user: "ann", deviceId: "firefox").count == 1)
        }
    }

    @Test func aMessageTooLargeForOneRecordGoesIndirectly() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        try await withService(endpoint) { log, _ in
            try await Settings(log: log).set(.pushSizeLimit, to: "100000")
            let long = String(repeating: "x", count: 6000)
            let payload = Data(#"{"responseTopic": "/t", "fields": [{"type": "text", "label": "\#(long)"}]}"#.utf8)
            let id = try await Notifications(log: log).send(
                to: ["ann"], title: "Long", body: "read it", payload: payload
            ).messageIds[0]
            let delivery = try await settled(log, id)
            #expect(delivery.status == .delivered)
            let push = try #require(endpoint.received.first)
            let plaintext = try JSONSerialization.jsonObject(with: Data(push.plaintext)) as? [String: Any]
            let muster = try JSONSerialization.data(withJSONObject: try #require(plaintext?["muster"]))
            let notice = try MusterJSON.decoder().decode(PushNotice.self, from: muster)
            #expect(notice.messageId == id && notice.message == nil)
            let delivered = try log.read { reader in
                var found: [String] = []
                try reader.events(EventQuery(type: "PushDelivered")) {
                    found.append(String(decoding: $0.body.bytes, as: UTF8.self))
                    return true
                }
                return found
            }
            #expect(delivered.count == 1 && delivered[0].hasSuffix("indirect"))
        }
    }

    @Test func aMessageAboveTheNamespacesPushSizeLimitGoesIndirectlyThoughTheProviderWouldTakeIt() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        try await withService(endpoint) { log, _ in
            try await Settings(log: log).set(.pushSizeLimit, to: "300")
            let id = try await send(log)
            #expect(try await settled(log, id).status == .delivered)
            let push = try #require(endpoint.received.first)
            let plaintext = try JSONSerialization.jsonObject(with: Data(push.plaintext)) as? [String: Any]
            let muster = try JSONSerialization.data(withJSONObject: try #require(plaintext?["muster"]))
            let notice = try MusterJSON.decoder().decode(PushNotice.self, from: muster)
            #expect(notice.messageId == id && notice.title == "Shift")
            #expect(notice.message == nil, "the app fetches the message by its id")
        }
    }

    @Test func aServerErrorAndATooManyRequestsAreRetriedUntilDelivered() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        endpoint.inject(.status(500, retryAfter: nil))
        endpoint.inject(.status(429, retryAfter: "0"))
        try await withService(endpoint) { log, _ in
            let id = try await send(log)
            let delivery = try await settled(log, id)
            #expect(delivery.status == .delivered)
            #expect(delivery.attempts == 3)
            #expect(delivery.lastStatus == 429)
            #expect(endpoint.receivedCount == 1)
        }
    }

    @Test func aGoneSubscriptionIsPrunedAndNothingMoreGoesToIt() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        endpoint.inject(.status(410, retryAfter: nil))
        try await withService(endpoint) { log, _ in
            let id = try await send(log)
            let delivery = try await settled(log, id)
            #expect(delivery.status == .failed)
            #expect(delivery.lastStatus == 410)
            #expect(try Directory(log: log).devices(user: "ann").isEmpty)
            let next = try await send(log)
            #expect(try Deliveries(log: log).list(messageId: next).isEmpty)
            #expect(endpoint.receivedCount == 0)
        }
    }
}
