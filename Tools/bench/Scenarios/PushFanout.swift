import EventLog
import EventLogTesting
import Foundation
import Logging
import Muster
import MusterHTTP
import MusterWire
import PushDelivery
import PushProviders
import PushTesting

/// One form sent to N users (100,000; `--users`) with one Web Push target each, delivered by the
/// `DeliveryService` as `muster serve` runs it to a local endpoint that checks VAPID and decrypts and counts
/// every push. Timed from the send until every delivery is recorded as `PushDelivered`, and until the endpoint
/// has taken them all; against the same endpoint taking pre-encrypted bodies from a plain async-http-client with
/// the same concurrency, in the same run. Target: all delivered within 20 s, at least ×0.5 of the baseline.
struct PushFanout: Scenario {
    let name = "push-fanout"
    static let title = "Bench"
    static let body = "Everyone"
    static let targetUsers = 100_000
    static let targetSeconds = 20.0
    static let targetRatio = 0.5

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let users = settings.users
        let directory = try TemporaryDirectory("bench-push")
        defer { settings.discard(directory) }
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }

        let prepared = try PushSourceSetup.prepare(
            PushSourceBody(name: "browsers", kind: .webpush, subject: "mailto:bench@example.org"))
        try await PushSources(log: log).configure(
            "browsers", kind: prepared.kind, details: prepared.details, endpoint: nil, secret: prepared.secret)
        let key = try VAPIDKey(rawPrivateKey: prepared.secret)
        let endpoint = try await WebPushEndpoint.start(expectedKey: key.publicKey, bulk: true)
        do {
            let setUp = ContinuousClock.now
            try await SendToAll.createUsers(users, in: log)
            let subscriptions = try await WebPushTargets.register(users, at: endpoint, in: log)
            report.context.append(
                Figure(label: "set-up, not timed (users, subscriptions)", value: seconds(since: setUp), unit: "s"))
            var connections = ProviderConnectionOptions()
            if let count = settings.connections { connections.maximumConnections = count }
            try await measure(
                users: users, subscriptions: subscriptions, key: key, log: log, endpoint: endpoint,
                connections: connections, into: &report)
        } catch {
            await endpoint.stop()
            throw error
        }
        await endpoint.stop()
    }

    /// The fan-out through Muster, then the plain client's run against the same endpoint.
    func measure(
        users: Int, subscriptions: [String], key: VAPIDKey, log: EventLog, endpoint: WebPushEndpoint,
        connections: ProviderConnectionOptions, into report: inout ScenarioReport
    ) async throws {
        let options = DeliveryService.Options()
        let fanout = try await FanoutRun.run(
            users: users, log: log, endpoint: endpoint, options: options, connections: connections)

        let plaintext = try Self.plaintext(of: fanout.messageId, log: log)
        let encrypted = ContinuousClock.now
        let requests = try await PlainPushSender.prepare(plaintext, for: subscriptions, workers: 2)
        report.context.append(
            Figure(label: "baseline bodies encrypted, not timed", value: seconds(since: encrypted), unit: "s"))
        let authorization = try await VAPIDSigner(key: key, subject: "mailto:bench@example.org")
            .authorization(for: URL(string: endpoint.origin)!)
        let before = endpoint.receivedCount
        let sender = PlainPushSender(
            authorization: authorization, concurrency: options.concurrency, connections: connections)
        let plain = try await sender.send(requests)
        guard plain.refused == 0, await endpoint.waitForPushes(before + users) else {
            throw NotDelivered("the endpoint refused \(plain.refused) of the plain client's \(users) pushes")
        }

        let rate = Double(users) / fanout.recordedSeconds
        let baselineRate = Double(users) / plain.seconds
        report.comparisons.append(
            Comparison(
                "Web Push fan-out to \(users) users, \(options.concurrency) in flight",
                figure: Figure(label: "muster, until the last PushDelivered", value: rate, unit: "deliveries/s"),
                baseline: Figure(label: "plain async-http-client, pre-encrypted", value: baselineRate, unit: "pushes/s")
            ))
        report.comparisons.append(
            Comparison(
                "until the last delivery is recorded",
                figure: Figure(label: "muster", value: fanout.recordedSeconds, unit: "s"),
                baseline: Figure(label: "plain client, all answered", value: plain.seconds, unit: "s")))
        report.context.append(Figure(label: "send returned", value: fanout.sendSeconds * 1000, unit: "ms"))
        report.context.append(Figure(label: "endpoint took the last push", value: fanout.receivedSeconds, unit: "s"))
        report.context.append(Figure(label: "last PushDelivered recorded", value: fanout.recordedSeconds, unit: "s"))
        report.context.append(
            Figure(label: "requests to the endpoint (muster)", value: Double(fanout.requests), unit: "requests"))
        report.context.append(
            Figure(label: "pushes the endpoint took (muster)", value: Double(fanout.pushes), unit: "pushes"))
        report.context.append(
            Figure(label: "deliveries attempted more than once", value: Double(fanout.retried), unit: "deliveries"))
        if let reason = fanout.retryReason { report.notes.append("most common reason of a retried attempt: \(reason)") }
        report.context.append(Figure(label: "push plaintext", value: Double(plaintext.count), unit: "bytes"))
        let lookups = try Self.lookupCosts(of: fanout.messageId, log: log)
        report.context.append(
            Figure(label: "whole send decoded per lookup (Notifications.message)", value: lookups.whole, unit: "µs"))
        report.context.append(
            Figure(label: "message lookup per delivery (Deliveries.message)", value: lookups.kept, unit: "µs"))
        let ratio = rate / baselineRate
        // The target is for 100,000 users: 20 s is 5,000 deliveries/s; a smaller run is judged by its rate.
        let met = rate >= Double(Self.targetUsers) / Self.targetSeconds && ratio >= Self.targetRatio
        report.notes.append(
            String(
                format: "%.2f s until every delivery was recorded (%.2f s until the endpoint took all), ×%.2f of the "
                    + "plain client; ", fanout.recordedSeconds, fanout.receivedSeconds, ratio)
                + "target 100,000 within 20 s (5,000/s) and ≥ ×0.5: \(met ? "met" : "not met") at \(users) users; "
                + "\(connections.maximumConnections) HTTP/1 connections to the endpoint on both sides")
    }

    /// Microseconds per lookup of a delivery's message: through `Notifications.message`, which decodes the whole
    /// send (every recipient) each time, and through `Deliveries.message(of:)`, as the delivery service does.
    static func lookupCosts(of messageId: UUID, log: EventLog) throws -> (whole: Double, kept: Double) {
        let deliveries = Deliveries(log: log)
        let sample =
            Array(try deliveries.list(messageId: messageId).prefix(1))
            + Array(try deliveries.list(status: .delivered).prefix(200))
        let notifications = Notifications(log: log)
        let whole = ContinuousClock.now
        for delivery in sample.prefix(20) {
            _ = try notifications.message(id: delivery.messageId, user: delivery.user, namespace: delivery.namespace)
        }
        let wholeMicroseconds = seconds(since: whole) * 1e6 / Double(min(20, sample.count))
        // The first lookup decodes the send and keeps it, as the service's first delivery of a send does; the
        // figure is what every later delivery pays.
        if let first = sample.first { _ = try deliveries.message(of: first) }
        let kept = ContinuousClock.now
        for delivery in sample { _ = try deliveries.message(of: delivery) }
        return (wholeMicroseconds, seconds(since: kept) * 1e6 / Double(sample.count))
    }

    /// What the delivery service encrypts for this message: `{"title":…,"body":…,"muster":<notice>}` with the
    /// whole message in the notice, as the Web Push provider builds it.
    static func plaintext(of messageId: UUID, log: EventLog) throws -> [UInt8] {
        let deliveries = Deliveries(log: log)
        guard let delivery = try deliveries.list(messageId: messageId).first else {
            throw NotDelivered("message \(messageId) has no delivery")
        }
        let message = try deliveries.message(of: delivery)
        let notice = PushNotice(
            kind: .message, messageId: message.messageId, title: message.title, body: message.body, message: message)
        let muster = Array(try MusterJSON.encoder().encode(notice))
        return Array(#"{"title":"\#(title)","body":"\#(body)","muster":"#.utf8) + muster + [UInt8(ascii: "}")]
    }
}
