import EventLog
import Foundation

/// A provider took a push for one device: one delivery of a message is done.
public struct PushDelivered: DomainEvent, Hashable, Codable {
    public static let type = "PushDelivered"
    public static let schemaVersion: UInt16 = 1

    /// How much the push carried: the whole message, or its id for the app to fetch (the seed's indirect push); or,
    /// for a message withdrawn after it reached the device, the alert saying so in place of its own.
    public enum Carried: String, Sendable, Hashable, Codable {
        case direct, indirect, withdrawal
    }

    public var messageId: UUID
    public var user: String
    public var deviceId: String
    /// The push source it went through.
    public var source: String
    /// 1 for the first try.
    public var attempt: Int
    /// The provider's id for the push: `apns-id`, the FCM message name, the Web Push `Location`.
    public var providerId: String?
    public var carried: Carried
}

/// One attempt of a delivery failed: retried at `nextAttemptAt`, or (nil) never again.
public struct PushFailed: DomainEvent, Hashable, Codable {
    public static let type = "PushFailed"
    public static let schemaVersion: UInt16 = 1

    public var messageId: UUID
    public var user: String
    public var deviceId: String
    public var source: String
    public var attempt: Int
    /// The provider's HTTP status; nil when no answer came (timeout, connection).
    public var status: Int?
    /// The provider's reason (`Unregistered`, `UNAVAILABLE`, `timeout: …`); never a credential.
    public var reason: String
    /// When the next attempt is due, in microseconds since 1970; nil: the delivery has failed for good.
    public var nextAttemptAt: Int64?
}

/// A delivery's time to live ran out before a provider took it.
public struct PushExpired: DomainEvent, Hashable, Codable {
    public static let type = "PushExpired"
    public static let schemaVersion: UInt16 = 1

    public var messageId: UUID
    public var user: String
    public var deviceId: String
    /// Attempts made.
    public var attempts: Int
}
