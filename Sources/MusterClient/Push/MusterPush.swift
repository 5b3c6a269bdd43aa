import Foundation

/// A push notification from Muster, recognised in the `userInfo` the platform hands the app.
///
/// Muster's pushes carry one key, `muster`: `{"kind": "message", "messageId", "title", "body"}` (fetch the
/// message) or `{"kind": "locationRequest"}` (publish the current location). It may arrive as a dictionary
/// (APNs) or as JSON text (FCM data messages carry strings only).
public enum MusterPush: Sendable, Hashable {
    /// A message waits: fetch it with ``MusterClient/message(id:)``.
    case message(messageId: UUID, title: String?, body: String?)
    /// The server asks for the device's location: ``MusterClient/publishCurrentLocation(deviceId:latitude:longitude:accuracy:at:)``.
    case locationRequest

    /// Recognises a Muster push; nil when the notification is not Muster's (or not one this client knows).
    public init?(userInfo: [AnyHashable: Any]) {
        guard let raw = userInfo["muster"], let muster = Self.dictionary(raw),
            let kind = muster["kind"] as? String
        else { return nil }
        switch kind {
        case "message":
            guard let text = muster["messageId"] as? String, let messageId = UUID(uuidString: text) else { return nil }
            self = .message(messageId: messageId, title: muster["title"] as? String, body: muster["body"] as? String)
        case "locationRequest":
            self = .locationRequest
        default:
            return nil
        }
    }

    /// The `muster` member as a dictionary, whether it came as one or as JSON text.
    private static func dictionary(_ raw: Any) -> [String: Any]? {
        if let members = raw as? [String: Any] { return members }
        if let members = raw as? [AnyHashable: Any] {
            return Dictionary(
                members.compactMap { key, value in (key.base as? String).map { ($0, value) } },
                uniquingKeysWith: { first, _ in first })
        }
        let json: Data? = (raw as? String).map { Data($0.utf8) } ?? (raw as? Data)
        guard let json, let object = try? JSONSerialization.jsonObject(with: json) else { return nil }
        return object as? [String: Any]
    }
}
