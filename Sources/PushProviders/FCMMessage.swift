import Foundation

/// The body of an FCM HTTP v1 `messages:send`: the alert as `notification` (none for a silent push, a data-only
/// message), Muster's notice as the string `data.muster`, and the collapse key and lifetime for Android and for
/// APNs through FCM.
struct FCMMessageBody: Codable, Sendable, Hashable {
    struct Message: Codable, Sendable, Hashable {
        var token: String
        var notification: Notification?
        var data: [String: String]
        var android: Android
        var apns: APNs
    }
    struct Notification: Codable, Sendable, Hashable {
        var title: String
        var body: String
    }
    struct Android: Codable, Sendable, Hashable {
        var collapse_key: String
        /// Seconds as a protobuf Duration: `"3600s"`.
        var ttl: String
        var priority: String
        /// For an alert: its tag, the collapse id, so a later alert of the same message (its withdrawal) replaces it
        /// in the notification drawer (`collapse_key` only folds those not delivered yet).
        var notification: AndroidNotification?
    }
    struct AndroidNotification: Codable, Sendable, Hashable {
        var tag: String
    }
    struct APNs: Codable, Sendable, Hashable {
        var headers: [String: String]
        /// For a silent push to an Apple device through FCM: `{"aps":{"content-available":1}}`.
        var payload: Payload?
    }
    struct Payload: Codable, Sendable, Hashable {
        struct APS: Codable, Sendable, Hashable {
            var contentAvailable = 1
            enum CodingKeys: String, CodingKey { case contentAvailable = "content-available" }
        }
        var aps = APS()
    }

    var message: Message

    /// FCM refuses more than 4 KB of data and notification.
    static let limit = 4096
    /// FCM keeps a message four weeks at most.
    static let longestTTL = 28 * 24 * 3600

    /// The body for `push`, its lifetime counted from `now`.
    init(_ push: Push, now: Date) {
        let ttl = min(max(Int(push.expiresAt.timeIntervalSince(now).rounded(.down)), 0), Self.longestTTL)
        var apnsHeaders = ["apns-expiration": String(Int(push.expiresAt.timeIntervalSince1970))]
        if !push.collapseId.isEmpty { apnsHeaders["apns-collapse-id"] = push.collapseId }
        if push.silent {
            apnsHeaders["apns-push-type"] = "background"
            apnsHeaders["apns-priority"] = "5"
        }
        message = Message(
            token: push.token, notification: push.silent ? nil : .init(title: push.title, body: push.body),
            data: ["muster": String(decoding: push.notice, as: UTF8.self)],
            android: .init(
                collapse_key: push.collapseId, ttl: "\(ttl)s", priority: "high",
                notification: push.silent || push.collapseId.isEmpty ? nil : .init(tag: push.collapseId)),
            apns: .init(headers: apnsHeaders, payload: push.silent ? Payload() : nil))
    }

    /// The bytes FCM counts against its limit: the data's keys and values, the notification's title and body.
    static func countedSize(of push: Push) -> Int {
        "muster".utf8.count + push.notice.count + (push.silent ? 0 : push.title.utf8.count + push.body.utf8.count)
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings only: encoding cannot fail.
        return Array(try! encoder.encode(self))
    }
}
