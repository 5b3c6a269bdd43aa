import EventLog
import EventLogTesting
import Foundation
import Muster
import PushTesting
import Testing

/// A SIGKILL of `muster serve` in the middle of sending loses no push: the restarted server sends every delivery
/// still pending (again, with the same Topic, for those in flight at the kill), and none to a subscription pruned
/// before it.
@Suite struct PushDeliveryEndToEndCrashTests {
    static let users = 1000
    /// Pushes the endpoint never answers before the kill: fewer than the server's 8 connections to it, so the
    /// others keep flowing.
    static let held = 0..<4
    /// Pushes refused once with 503 and `Retry-After: 1`: pending, awaiting their retry, at the kill.
    static let refused = 4..<304
    /// Subscriptions ended before the send: answered 410, so pruned before the kill.
    static let ended = 304..<314

    @Test func everyPendingDeliveryIsSentAfterASIGKILLAndNoneToAPrunedTarget() async throws {
        let stage = try await WebPushStage.start(serveArguments: ["--push-retry-base", "0.1"])
        let subscriptions = (0..<Self.users).map { _ in stage.endpoint.subscribe() }
        try await importUsers(with: subscriptions, into: stage)
        for subscription in subscriptions[Self.held] { stage.endpoint.inject(.hold, subscription: subscription.id) }
        for subscription in subscriptions[Self.refused] {
            stage.endpoint.inject(.status(503, retryAfter: "1"), subscription: subscription.id)
        }
        for subscription in subscriptions[Self.ended] { stage.endpoint.unsubscribe(subscription.id) }

        let sent = try await stage.cli([
            "send", "--group", "crowd", "--title", "Muster", "--body", "Assemble at the gate",
            #"{"responseTopic": "/drill", "fields": [{"type": "text", "id": "where", "label": "Where are you?"}]}"#,
        ])
        #expect((try sent.json()["messageIds"] as? [String])?.count == Self.users)
        try await eventually("every delivery tried once and the ended subscriptions pruned", seconds: 40) {
            guard stage.endpoint.requestCount >= Self.users else { return false }
            return try await stage.events("PushTargetUnregistered").count == Self.ended.count
        }
        let beforeKill = Set(stage.endpoint.received.map(\.subscription))
        #expect(beforeKill.count < Self.users - Self.ended.count, "the kill comes in the middle of sending")

        try await stage.server.restart(after: SIGKILL)
        let live = Set(subscriptions.map(\.id)).subtracting(subscriptions[Self.ended].map(\.id))
        try await eventually("every live subscription to receive its push after the restart", seconds: 40) {
            Set(stage.endpoint.received.map(\.subscription)).isSuperset(of: live)
        }
        var pending: [[String: Any]] = []
        try await eventually(
            "no delivery left pending; left: \(pending.compactMap { $0["user"] as? String }.prefix(20)), "
                + "requests \(stage.endpoint.requestCount), taken \(stage.endpoint.receivedCount)"
        ) {
            pending = try await stage.deliveries(["--status", "pending"])
            return pending.isEmpty
        }

        let received = stage.endpoint.received
        let topics = Dictionary(grouping: received, by: \.subscription).mapValues { Set($0.map(\.topic)) }
        #expect(Set(topics.keys) == live, "nothing reached an ended subscription")
        #expect(topics.values.allSatisfy { $0.count == 1 && $0.first! != nil }, "a copy carries its original's Topic")
        #expect(Set(topics.values.compactMap { $0.first! }).count == live.count, "one Topic per message")
        // Each ended subscription was asked once, before the kill (its 410 pruned it): none after the restart.
        for subscription in subscriptions[Self.ended] {
            #expect(stage.endpoint.requestCount(for: subscription.id) == 1)
        }
        // Every other request not taken is one of the faults set up, or one the kill cut off mid-body (at most
        // one per connection of the killed server).
        let untaken = stage.endpoint.requestCount - received.count
        let faults = Self.held.count + Self.refused.count + Self.ended.count
        #expect(untaken >= faults && untaken <= faults + 8, "\(untaken) requests not taken")
        #expect(try await stage.deliveries(["--status", "delivered"]).count == live.count)
        let pruned = try await stage.events("PushTargetUnregistered").compactMap { $0["user"] as? String }
        #expect(Set(pruned) == Set(Self.ended.map(Self.name)))
        let devices = try await stage.cli(["devices", "list", "--json"])
        let listed = try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]]
        #expect(listed?.count == live.count)
        await stage.stop()
    }

    static func name(_ index: Int) -> String { String(format: "u%04d", index) }

    /// Users `u0000`… each with one browser subscribed, all in group `crowd`: written by this process into the
    /// server's data directory (as the CLI would, without a thousand process launches).
    private func importUsers(
        with subscriptions: [WebPushEndpoint.Subscription], into stage: WebPushStage
    ) async throws {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: stage.server.directory.url, configuration: configuration)
        defer { log.close() }
        let directory = Directory(log: log)
        for (index, subscription) in subscriptions.enumerated() {
            try await directory.addUser(Self.name(index), password: nil)
            try await directory.register(
                PushTargetRegistered(
                    user: Self.name(index), deviceId: "browser", deviceName: "Firefox", platform: .web,
                    token: subscription.json))
        }
        try await directory.defineGroup("crowd", members: subscriptions.indices.map(Self.name))
    }
}
