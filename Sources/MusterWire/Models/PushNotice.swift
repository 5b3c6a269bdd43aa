import Foundation

/// What a Muster push carries to the app under the key `muster`: a message to fetch (or the whole message, when it
/// fits in the push), a location request, an area notification waiting for the app, a message withdrawn, or a test.
///
/// APNs carries it as a dictionary beside `aps`; FCM data messages carry strings only, so there it is this
/// object's JSON text; a Web Push plaintext is `{"muster": …}`.
public struct PushNotice: Sendable, Hashable, Codable {
    /// What the push asks of the app.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A message waits in the inbox.
        case message
        /// The server asks for the device's location.
        case locationRequest
        /// An operator's test push (`muster push-sources test`): shown, nothing to fetch.
        case test
        /// An area notification waits for the app (`GET /api/v1/devices/{id}/notices`): `noticeId`, and the
        /// notification's title and body when it is a user notification (a server notification's push is silent).
        case areaNotice
        /// The message `messageId` was withdrawn by its sender: its alert is replaced by this one (the same collapse
        /// id and tag), and the app takes it out of what it shows.
        case withdrawn
    }

    public var kind: Kind
    /// The message's id (kinds `message` and `withdrawn`).
    public var messageId: UUID?
    /// The notice's id and the device it was handed to (kind `areaNotice`).
    public var noticeId: UUID?
    public var deviceId: String?
    /// The alert's title and body.
    public var title: String?
    public var body: String?
    /// The whole message as `GET /api/v1/messages/{id}` gives it, when it fits (a direct push); nil: fetch it by
    /// id (the seed's indirect push).
    public var message: Message?

    /// Creates a notice from its parts.
    public init(
        kind: Kind, messageId: UUID? = nil, title: String? = nil, body: String? = nil, message: Message? = nil,
        noticeId: UUID? = nil, deviceId: String? = nil
    ) {
        self.deviceId = deviceId
        self.kind = kind
        self.messageId = messageId
        self.noticeId = noticeId
        self.title = title
        self.body = body
        self.message = message
    }
}
