import Foundation
import MusterWire

/// A push notification from Muster, recognised in the `userInfo` the platform hands the app.
///
/// Muster's pushes carry one key, `muster`: a ``PushNotice`` — `{"kind": "message", "messageId", "title", "body",
/// "message"?}` (the whole message when it fits in the push, else fetch it), `{"kind": "locationRequest"}` (publish
/// the current location), `{"kind": "areaNotice", "noticeId", "deviceId", "title"?, "body"?}` (an area notification waits for
/// the app), `{"kind": "withdrawn", "messageId", "title", "body"}` (the message was withdrawn) or `{"kind": "test",
/// "title", "body"}` (an operator's test push). It may arrive as a
/// dictionary (APNs, Web Push) or as JSON text (FCM data messages carry strings only).
public enum MusterPush: Sendable, Hashable {
    /// A message waits. `message` is the whole message when the push carried it (a direct push); nil: fetch it with
    /// ``MusterClient/message(id:)``.
    case message(messageId: UUID, title: String?, body: String?, message: Message? = nil)
    /// The server asks for the device's location: ``MusterClient/publishCurrentLocation(deviceId:latitude:longitude:accuracy:at:)``.
    case locationRequest
    /// An operator's test push (`muster push-sources test`): show it if you like; there is nothing to fetch.
    case test(title: String?, body: String?)
    /// An area notification waits for the app: ``MusterClient/notices(deviceId:)`` has it (title and body are nil
    /// for a server notification, whose push is silent).
    case areaNotice(noticeId: UUID, deviceId: String, title: String?, body: String?)
    /// The message was withdrawn by its sender: this push's alert took the place of the message's (the same collapse
    /// id); the app drops the message from what it shows, as answering it is refused now.
    case withdrawn(messageId: UUID, title: String?)

    /// Recognises a Muster push; nil when the notification is not Muster's (or not one this client knows).
    public init?(userInfo: [AnyHashable: Any]) {
        guard let raw = userInfo["muster"], let notice = Self.notice(raw) else { return nil }
        switch notice.kind {
        case .message:
            guard let messageId = notice.messageId ?? notice.message?.messageId else { return nil }
            self = .message(messageId: messageId, title: notice.title, body: notice.body, message: notice.message)
        case .locationRequest:
            self = .locationRequest
        case .test:
            self = .test(title: notice.title, body: notice.body)
        case .areaNotice:
            guard let noticeId = notice.noticeId, let deviceId = notice.deviceId else { return nil }
            self = .areaNotice(noticeId: noticeId, deviceId: deviceId, title: notice.title, body: notice.body)
        case .withdrawn:
            guard let messageId = notice.messageId else { return nil }
            self = .withdrawn(messageId: messageId, title: notice.title)
        }
    }

    /// The `muster` member as a notice, whether it came as a dictionary or as JSON text.
    private static func notice(_ raw: Any) -> PushNotice? {
        let json: Data?
        if let text = raw as? String {
            json = Data(text.utf8)
        } else if let data = raw as? Data {
            json = data
        } else if let members = dictionary(raw), JSONSerialization.isValidJSONObject(members) {
            json = try? JSONSerialization.data(withJSONObject: members)
        } else {
            json = nil
        }
        guard let json else { return nil }
        return try? MusterJSON.decoder().decode(PushNotice.self, from: json)
    }

    /// A dictionary's members under their string keys.
    private static func dictionary(_ raw: Any) -> [String: Any]? {
        if let members = raw as? [String: Any] { return members }
        guard let members = raw as? [AnyHashable: Any] else { return nil }
        return Dictionary(
            members.compactMap { key, value in (key.base as? String).map { ($0, value) } },
            uniquingKeysWith: { first, _ in first })
    }
}
