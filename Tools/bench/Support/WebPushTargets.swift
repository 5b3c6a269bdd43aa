import EventLog
import Foundation
import Muster
import PushTesting

/// Set-up for the push scenarios: one subscription at the local endpoint per user, registered as the user's `web`
/// push target through the domain's event, many users per write transaction.
enum WebPushTargets {
    static let usersPerCommit = 10_000
    /// The device id every user's browser is registered under.
    static let deviceId = "browser"

    /// Subscribes `user0` … `user<count-1>` at `endpoint` and registers each subscription as that user's browser;
    /// returns the subscriptions' JSON, in user order.
    static func register(_ count: Int, at endpoint: WebPushEndpoint, in log: EventLog) async throws -> [String] {
        var subscriptions: [String] = []
        subscriptions.reserveCapacity(count)
        var first = 0
        while first < count {
            let range = first..<min(count, first + usersPerCommit)
            let batch = range.map { _ in endpoint.subscribe().json }
            try await log.perform { scope in
                for (n, json) in zip(range, batch) {
                    let target = PushTargetRegistered(
                        user: "user\(n)", deviceId: deviceId, deviceName: "Browser", platform: .web, token: json)
                    try scope.append(
                        AppendRequest(stream: "devices/user\(n)", events: [target.newEvent(actor: "bench")]))
                }
            }
            subscriptions += batch
            first = range.upperBound
        }
        return subscriptions
    }
}
