import EventLog
import MusterWire

/// Where a user's device takes pushes: registering the same device again updates it.
///
/// Schema 2 added `publishTopic`; `Migrations` lifts schema 1 (written by 0.1.0) with none.
public struct PushTargetRegistered: DomainEvent, Hashable, Codable {
    public static let type = "PushTargetRegistered"
    public static let schemaVersion: UInt16 = 2

    /// How pushes reach the device: the wire's platform (`web`, `apns`, `fcm`, `mqtt`).
    public typealias Platform = PushTarget.Platform

    public var user: String
    public var deviceId: String
    public var deviceName: String
    public var platform: Platform
    /// The platform's push token (APNs device token in hex, FCM token, Web Push subscription …); for `mqtt`, the
    /// device's `SubscribeTopic`: where it receives, so where Muster publishes to it.
    public var token: String?
    /// For `mqtt` only: the device's `PublishTopic`, where it sends, so where Muster listens.
    public var publishTopic: String?

    public init(
        user: String, deviceId: String, deviceName: String, platform: Platform, token: String?,
        publishTopic: String? = nil
    ) {
        self.user = user
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.platform = platform
        self.token = token
        self.publishTopic = publishTopic
    }
}

/// A device no longer takes pushes: its user removed it, or its push provider said it is gone.
///
/// Schema 2 added `reason`; `Migrations` lifts schema 1 (written by 0.1.0) with no reason.
public struct PushTargetUnregistered: DomainEvent, Hashable, Codable {
    public static let type = "PushTargetUnregistered"
    public static let schemaVersion: UInt16 = 2

    public var user: String
    public var deviceId: String
    /// Why, when a provider pruned it (`apns 410 Unregistered`); nil when its user removed it.
    public var reason: String?
}
