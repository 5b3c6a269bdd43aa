import Crypto
import EventLog

/// The MQTT devices of every namespace, kept inline so registration can refuse a taken publish topic and a report
/// can be checked for a redelivery in the transaction that records it.
///
/// Tables (`device` below is `namespace 0 user 0 deviceId 0`):
/// - `devices`: `device` → the `PushTargetRegistered` body of an `mqtt` device with both topics.
/// - `publishTopics`: `namespace 0` SHA-256(publish topic) → `user 0 deviceId 0` (a topic may be longer than a
///   key may be).
/// - `sessionObjects`: `device` → the JSON of the last first-level `SessionObject` the device sent.
/// - `recent`: `device` content hash → recorded at (8 bytes), position (8 bytes), both big-endian: the messages
///   of the last `duplicateWindow`, for `MQTTDevices.report` to find redeliveries.
/// - `recentByTime`: recorded at (8 bytes) `device` content hash → nothing, to prune `recent` oldest first. Time
///   first, so new entries are appended at its end and old ones removed from its start: keyed by device (version
///   1), every message rewrote a page somewhere in the table, and with `recent` that was ~85 % of the bytes
///   written per message at a thousand devices (bench mqtt-ingest).
public struct MQTTDevicesProjection: Projection {
    public static let name = "mqttDevices"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["devices", "publishTopics", "sessionObjects", "recent", "recentByTime"] }
    public var eventTypes: Set<String>? {
        [PushTargetRegistered.type, PushTargetUnregistered.type, DeviceDataReported.type]
    }

    /// How long a message is remembered: the same one again within it is a redelivery.
    public let duplicateWindow: Duration

    /// - Parameter duplicateWindow: measured on the events' recorded times; 10 minutes unless told.
    public init(duplicateWindow: Duration = .seconds(600)) { self.duplicateWindow = duplicateWindow }

    /// The window in microseconds, as recorded times count.
    var windowMicroseconds: Int64 { Self.microseconds(duplicateWindow) }

    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        switch event.type {
        case PushTargetRegistered.type:
            let target = try PushTargetRegistered.decode(event)!
            try remove(ns, target.user, target.deviceId, state)
            guard let device = MQTTDevice(target, namespace: ns) else { return }
            try state.put("devices", Key.joined(ns, target.user, target.deviceId), event.body.bytes)
            try state.put(
                "publishTopics", Self.topicKey(ns, device.publishTopic), Key.joined(target.user, target.deviceId))
        case PushTargetUnregistered.type:
            let gone = try PushTargetUnregistered.decode(event)!
            try remove(ns, gone.user, gone.deviceId, state)
        case DeviceDataReported.type:
            let data = try DeviceDataReported.decode(event)!
            let device = Key.joined(ns, data.user, data.deviceId)
            try remember(data.contentHash, of: device, at: event.recordedAt, position: event.position, state)
            if let sessionObject = SessionObject.find(in: data.body) {
                if sessionObject == Array("null".utf8) {
                    try state.delete("sessionObjects", device)
                } else {
                    try state.put("sessionObjects", device, sessionObject)
                }
            }
        default: break
        }
    }

    /// Forgets the device's registration and publish topic (its session object and recent messages stay: a
    /// device registered again goes on where it was).
    private func remove(_ ns: String, _ user: String, _ deviceId: String, _ state: ProjectionState) throws {
        let key = Key.joined(ns, user, deviceId)
        let stored: PushTargetRegistered? = try ProjectionView<Self>(state: state).event("devices", key)
        guard let previous = stored else { return }
        if let topic = previous.publishTopic {
            let topicKey = Self.topicKey(ns, topic)
            if try state.get("publishTopics", topicKey) == Key.joined(user, deviceId) {
                try state.delete("publishTopics", topicKey)
            }
        }
        try state.delete("devices", key)
    }

    /// Records a message's hash as seen at `recordedAt`, and forgets the hashes of every device older than the
    /// window (a few per message, oldest first, so the work per message stays small).
    private func remember(
        _ hash: String, of device: [UInt8], at recordedAt: Int64, position: UInt64, _ state: ProjectionState
    ) throws {
        let hashKey = device + Array(hash.utf8)
        if let earlier = try state.get("recent", hashKey) {
            try state.delete("recentByTime", Key.position(Self.time(earlier)) + hashKey)
        }
        let time = UInt64(max(0, recordedAt))
        try state.put("recent", hashKey, Key.position(time) + Key.position(position))
        try state.put("recentByTime", Key.position(time) + hashKey, [])

        let cutoff = recordedAt - windowMicroseconds
        guard cutoff > 0 else { return }
        var expired: [[UInt8]] = []
        try state.scan("recentByTime", prefix: []) { key, _ in
            guard expired.count < Self.prunedPerMessage, Int64(Key.readPosition(key)) < cutoff else { return false }
            expired.append(Array(key))
            return true
        }
        for key in expired {
            try state.delete("recentByTime", key)
            let recentKey = Array(key[8...])
            // Only when `recent` still holds this time: a later copy of the message moved it on.
            if let value = try state.get("recent", recentKey), Self.time(value) == Self.time(key) {
                try state.delete("recent", recentKey)
            }
        }
    }

    /// At most this many expired hashes are forgotten per recorded message: more than one, so the table shrinks
    /// back after a burst.
    static let prunedPerMessage = 4

    /// `namespace 0` SHA-256(topic).
    static func topicKey(_ ns: String, _ topic: String) -> [UInt8] {
        Key.joined(ns) + Array(SHA256.hash(data: Array(topic.utf8)))
    }

    /// The recorded time of a `recent` value or a `recentByTime` key (their first 8 bytes).
    static func time(_ value: [UInt8]) -> UInt64 { value.withUnsafeBytes { Key.readPosition($0) } }
}
