/// The body of `POST /devices`: a push target of the caller, registered or updated.
public struct DeviceRegistrationBody: Sendable, Hashable, Codable {
    /// An id unique among the user's devices.
    public var deviceId: String
    /// A name the user recognises.
    public var deviceName: String
    /// How pushes reach it: a ``PushTarget/Platform`` raw value (the server names the choices for another).
    public var platform: String
    /// The platform's push token; for `mqtt`, the device's `SubscribeTopic`.
    public var token: String?
    /// For `mqtt` only (and required there): the device's `PublishTopic`.
    public var publishTopic: String?

    /// Creates a registration from its parts.
    public init(
        deviceId: String, deviceName: String, platform: PushTarget.Platform, token: String? = nil,
        publishTopic: String? = nil
    ) {
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.platform = platform.rawValue
        self.token = token
        self.publishTopic = publishTopic
    }
}
