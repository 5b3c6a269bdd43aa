import EventLog
import Foundation

/// Push targets: the devices each user receives pushes on.
extension Directory {
    /// Registers a device of an existing user, or updates it when the device id is registered already.
    ///
    /// An `mqtt` device needs its `SubscribeTopic` as `token` and its `PublishTopic` as `publishTopic`, two exact
    /// MQTT topics (`MQTTTopic`) that no other device of any namespace has as either (`.conflict`,
    /// `MQTTDevice.topicConflict`); no other platform takes a `publishTopic` (`.invalidArgument`).
    public func register(
        _ target: PushTargetRegistered, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws {
        try Names.validate(target.deviceId, as: "device id", field: "deviceId")
        try Names.validate(target.deviceName, as: "device name", field: "deviceName")
        // An mqtt device's token is its SubscribeTopic, checked with its topics.
        if target.platform != .mqtt, target.token?.isEmpty == true {
            throw MusterError(
                .invalidArgument,
                "token: must not be empty; leave it out until the device has one from its push service",
                field: "token")
        }
        try Self.checkTopics(target)
        try await log.perform { scope in
            guard try scope.directory.user(target.user, namespace: namespace) != nil else {
                throw MusterError(
                    .notFound, "no user named \(String(reflecting: target.user)) in namespace \(namespace)")
            }
            if let device = MQTTDevice(target, namespace: namespace),
                let conflict = device.topicConflict(among: try scope.mqttDevices.devices(namespace: nil))
            {
                throw conflict
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.devices(of: target.user),
                    events: [target.newEvent(actor: actor)]))
        }
    }

    /// Throws `.invalidArgument` naming `token` or `publishTopic` when an `mqtt` device lacks either or one is
    /// not an exact MQTT topic, or when another platform is given a publish topic.
    static func checkTopics(_ target: PushTargetRegistered) throws {
        guard target.platform == .mqtt else {
            guard target.publishTopic == nil || target.publishTopic == "" else {
                throw MusterError(
                    .invalidArgument,
                    "publishTopic is for mqtt devices only; a \(target.platform.rawValue) device takes none",
                    field: "publishTopic")
            }
            return
        }
        guard let subscribeTopic = target.token else {
            throw MusterError(
                .invalidArgument, "token: an mqtt device needs its SubscribeTopic, where Muster publishes to it",
                field: "token")
        }
        try MQTTTopic.validate(subscribeTopic, as: "token")
        guard let publishTopic = target.publishTopic else {
            throw MusterError(
                .invalidArgument, "publishTopic: an mqtt device needs its PublishTopic, where Muster listens to it",
                field: "publishTopic")
        }
        try MQTTTopic.validate(publishTopic, as: "publishTopic")
    }

    /// Unregisters a device, saying why when another than its user does (`reason`); returns false when it was not
    /// registered (nothing is written then).
    @discardableResult
    public func unregister(
        user: String, deviceId: String, namespace: String = Names.defaultNamespace, actor: String = "system",
        reason: String? = nil
    ) async throws -> Bool {
        try await log.perform { scope in
            guard try scope.directory.device(deviceId, user: user, namespace: namespace) != nil else { return false }
            let event = PushTargetUnregistered(user: user, deviceId: deviceId, reason: reason)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.devices(of: user), events: [event.newEvent(actor: actor)]))
            return true
        }
    }

    /// The devices of one user, or of everyone in the namespace.
    public func devices(user: String? = nil, namespace: String = Names.defaultNamespace) throws
        -> [PushTargetRegistered]
    {
        try log.read { try $0.directory.devices(user: user, namespace: namespace) }
    }
}
