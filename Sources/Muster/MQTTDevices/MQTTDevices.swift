import EventLog
import Foundation
import MusterWire

/// The MQTT side of the directory: which device publishes on which topic, what the devices reported, and
/// their session objects. The bridge to the broker reads and records through this; it knows no MQTT itself.
public struct MQTTDevices: Sendable {
    let log: EventLog
    /// The same message from a device again within this window is a redelivery: the projection's window.
    public let duplicateWindow: Duration
    /// The projection's remembered messages, indexed for `report`.
    let recent = RecentMessages()

    /// - Parameter log: a log whose projections include an `MQTTDevicesProjection` (its window is used).
    public init(log: EventLog) {
        self.log = log
        let configured = log.configuration.projections.lazy.compactMap { $0 as? MQTTDevicesProjection }.first
        duplicateWindow = (configured ?? MQTTDevicesProjection()).duplicateWindow
    }

    /// The device of the namespace that publishes on `publishTopic`, or nil: where a message on it comes from.
    public func device(publishTopic: String, namespace: String = Names.defaultNamespace) throws -> MQTTDevice? {
        try log.read { try $0.mqttDevices.device(publishTopic: publishTopic, namespace: namespace) }
    }

    /// Every MQTT device of the namespace (of every namespace when nil), by namespace, user and device id.
    public func devices(namespace: String? = nil) throws -> [MQTTDevice] {
        try log.read { try $0.mqttDevices.devices(namespace: namespace) }
    }

    /// The publish topics of every MQTT device of the namespace (of every namespace when nil): what the bridge
    /// subscribes to.
    public func publishTopics(namespace: String? = nil) throws -> [String] {
        try devices(namespace: namespace).map(\.publishTopic)
    }

    /// The session object the device last sent (a first-level `SessionObject` of a message), or nil.
    public func sessionObject(namespace: String = Names.defaultNamespace, user: String, deviceId: String) throws
        -> JSONValue?
    {
        let json = try log.read {
            try $0.mqttDevices.sessionObject(user: user, deviceId: deviceId, namespace: namespace)
        }
        return try json.map { try JSONValue(json: Data($0)) }
    }

    /// The last message delivered to the device as a DialogMessage (the one an `InstantSender` value answers), or
    /// nil when none was.
    public func lastDialog(namespace: String = Names.defaultNamespace, user: String, deviceId: String) throws -> UUID? {
        try log.read { try $0.mqttDevices.lastDialog(user: user, deviceId: deviceId, namespace: namespace) }
    }

    /// Whether a message of this content hash from the device was recorded within the window: a redelivery, whose
    /// picture need not be stored again. A hint read outside the writer; `report` decides.
    public func isRecorded(
        contentHash: String, namespace: String = Names.defaultNamespace, user: String, deviceId: String
    )
        throws -> Bool
    {
        let since = log.configuration.clock() - MQTTDevicesProjection.microseconds(duplicateWindow)
        let message = RecentMessages.Message(
            device: Key.joined(namespace, user, deviceId), contentHash: contentHash.utf8)
        return try log.read { reader in
            try recent.following(reader.projection(MQTTDevicesProjection.name), hint: true) { index in
                index.find(message).map { $0.recordedAt > since } ?? false
            }
        }
    }
}
