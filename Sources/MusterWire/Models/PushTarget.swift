/// One of the user's devices registered for push notifications (the seed's ArsPushTarget).
public struct PushTarget: Sendable, Hashable, Codable {
    /// The owner's username.
    public var user: String
    /// The device's id, unique per user; responses name it.
    public var deviceId: String
    /// A human-readable name of the device, e.g. "Anna's iPhone".
    public var deviceName: String
    /// How pushes reach it.
    public var platform: Platform
    /// The platform's push token (APNs device token as hex, FCM registration token, Web Push subscription); for
    /// `mqtt`, the device's `SubscribeTopic`, where the server publishes to it.
    public var token: String?
    /// For `mqtt` only: the device's `PublishTopic`, where it sends and the server listens.
    public var publishTopic: String?

    /// Creates a push target from its parts.
    public init(
        user: String, deviceId: String, deviceName: String, platform: Platform, token: String? = nil,
        publishTopic: String? = nil
    ) {
        self.user = user
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.platform = platform
        self.token = token
        self.publishTopic = publishTopic
    }

    /// How pushes reach a device.
    public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
        /// Web Push, to a browser.
        case web
        /// Apple Push Notification service.
        case apns
        /// Firebase Cloud Messaging.
        case fcm
        /// An MQTT broker.
        case mqtt
    }
}
