import EventLog
import Foundation

extension LogSnapshot {
    /// The MQTT devices in this snapshot.
    var mqttDevices: ProjectionView<MQTTDevicesProjection> { get throws { try view(MQTTDevicesProjection()) } }
}

extension ProjectionView<MQTTDevicesProjection> {
    /// The device of `namespace` that publishes on `topic`, or nil.
    func device(publishTopic topic: String, namespace: String) throws -> MQTTDevice? {
        guard let owner = try state.get("publishTopics", MQTTDevicesProjection.topicKey(namespace, topic)) else {
            return nil
        }
        let parts = Key.components(owner)
        guard parts.count == 2 else { return nil }
        return try device(user: parts[0], deviceId: parts[1], namespace: namespace)
    }

    /// The `mqtt` device `deviceId` of `user`, or nil.
    func device(user: String, deviceId: String, namespace: String) throws -> MQTTDevice? {
        let target: PushTargetRegistered? = try event("devices", Key.joined(namespace, user, deviceId))
        return target.flatMap { MQTTDevice($0, namespace: namespace) }
    }

    /// Whether `deviceId` of `user` is a registered `mqtt` device (the table holds no other), without reading it.
    func hasDevice(user: String, deviceId: String, namespace: String) throws -> Bool {
        try state.get("devices", Key.joined(namespace, user, deviceId)) != nil
    }

    /// Every device of the namespace (of every namespace when nil), by namespace, user and device id.
    func devices(namespace: String?) throws -> [MQTTDevice] {
        var devices: [MQTTDevice] = []
        try state.scan("devices", prefix: namespace.map { Key.joined($0) } ?? []) { key, value in
            var reader = ByteReader(value)
            let target = try PushTargetRegistered(from: &reader)
            if let device = MQTTDevice(target, namespace: Key.components(key)[0]) { devices.append(device) }
            return true
        }
        return devices
    }

    /// The JSON text of the device's last session object, or nil.
    func sessionObject(user: String, deviceId: String, namespace: String) throws -> [UInt8]? {
        try state.get("sessionObjects", Key.joined(namespace, user, deviceId))
    }

    /// The last message delivered to the device as a DialogMessage, or nil.
    func lastDialog(user: String, deviceId: String, namespace: String) throws -> UUID? {
        guard let bytes = try state.get("lastDialogs", Key.joined(namespace, user, deviceId)) else { return nil }
        return try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try reader.readUUID("message id")
        }
    }
}
