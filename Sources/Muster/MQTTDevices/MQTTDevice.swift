/// A device of platform `mqtt`: where Muster publishes to it and where it listens to it.
public struct MQTTDevice: Sendable, Hashable {
    public var namespace: String
    public var user: String
    public var deviceId: String
    public var deviceName: String
    /// The device's `SubscribeTopic` (the push target's token): where it receives, so where Muster publishes.
    public var subscribeTopic: String
    /// The device's `PublishTopic`: where it sends, so where Muster listens. No other device has either topic.
    public var publishTopic: String

    public init(
        namespace: String, user: String, deviceId: String, deviceName: String, subscribeTopic: String,
        publishTopic: String
    ) {
        self.namespace = namespace
        self.user = user
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.subscribeTopic = subscribeTopic
        self.publishTopic = publishTopic
    }

    /// The device a registration describes; nil when it is not a complete `mqtt` one.
    init?(_ target: PushTargetRegistered, namespace: String) {
        guard target.platform == .mqtt, let subscribeTopic = target.token, !subscribeTopic.isEmpty,
            let publishTopic = target.publishTopic, !publishTopic.isEmpty
        else { return nil }
        self.init(
            namespace: namespace, user: target.user, deviceId: target.deviceId, deviceName: target.deviceName,
            subscribeTopic: subscribeTopic, publishTopic: publishTopic)
    }
}
