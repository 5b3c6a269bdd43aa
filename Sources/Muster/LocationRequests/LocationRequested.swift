import EventLog
import Foundation

/// Someone asked where a user is: each of the user's phones (an APNs or FCM device a push source reaches) gets a
/// silent push that wakes the app to publish its location (seed 002's location-related notifications; the
/// `PushNotice` kind `locationRequest`). Browsers are not asked: a Web Push must show a notification, and a
/// service worker cannot read the position.
public struct LocationRequested: DomainEvent, Hashable, Codable {
    public static let type = "LocationRequested"
    public static let schemaVersion: UInt16 = 1

    /// The request's id; its deliveries carry it where a message's carry the message id.
    public var requestId: UUID
    public var user: String
    /// Why, for the audit (e.g. "roll call after the fire alarm").
    public var reason: String?

    public init(requestId: UUID = UUID(), user: String, reason: String? = nil) {
        self.requestId = requestId
        self.user = user
        self.reason = reason
    }
}
