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
/// - `lastDialogs`: `device` → the id (16 bytes) of the last message delivered to the device as a DialogMessage:
///   the message an `InstantSender` value alone answers.
/// - `recentMessages`: position (8 bytes, big-endian) → recorded at (8 bytes, big-endian), `device`, content hash:
///   the messages of the last `duplicateWindow` (at most `rememberedAtMost`), for `MQTTDevices.report` to find
///   redeliveries. Keyed by position, so each message is appended at the end and pruned from the start, and a batch
///   writes a page or two; it is looked up through an index in memory (`RecentMessages`). Version 2 kept a table
///   keyed by device and hash, and every message wrote a random page of it: ~85 % of the bytes written per message
///   at a thousand devices (bench mqtt-ingest).
public struct MQTTDevicesProjection: Projection {
    public static let name = "mqttDevices"
    public var name: String { Self.name }
    public var version: UInt32 { 4 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["devices", "publishTopics", "sessionObjects", Self.recentTable, "lastDialogs"] }
    public var eventTypes: Set<String>? {
        [PushTargetRegistered.type, PushTargetUnregistered.type, DeviceDataReported.type, PushDelivered.type]
    }

    static let recentTable = "recentMessages"

    /// How long a message is remembered: the same one again within it is a redelivery.
    public let duplicateWindow: Duration
    /// The most messages remembered, whatever their age: at a high rate the window is shorter. It bounds the
    /// table and the index in memory (about 100 bytes each on disk, 60 in memory).
    public let rememberedAtMost: Int

    /// - Parameters:
    ///   - duplicateWindow: measured on the events' recorded times; 10 minutes unless told.
    ///   - rememberedAtMost: 500,000 unless told: 10 minutes at 830 messages/s, 25 s at 20,000 — far more than
    ///     the bridge's receive maximum (what the broker can redeliver after an outage).
    public init(duplicateWindow: Duration = .seconds(600), rememberedAtMost: Int = 500_000) {
        self.duplicateWindow = duplicateWindow
        self.rememberedAtMost = max(1, rememberedAtMost)
    }

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
        case PushDelivered.type:
            let delivered = try PushDelivered.decode(event)!
            let device = Key.joined(ns, delivered.user, delivered.deviceId)
            guard try state.get("devices", device) != nil else { return }  // not an MQTT device
            var id = ByteWriter(capacity: 16)
            id.write(delivered.messageId)
            try state.put("lastDialogs", device, id.bytes)
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

    /// Remembers a message as recorded at `recordedAt`, and forgets the oldest ones — older than the window, or
    /// beyond `rememberedAtMost` — a few per message, so the work per message stays small.
    private func remember(
        _ hash: String, of device: [UInt8], at recordedAt: Int64, position: UInt64, _ state: ProjectionState
    ) throws {
        try state.put(
            Self.recentTable, Key.position(position),
            Key.position(UInt64(max(0, recordedAt))) + device + Array(hash.utf8))
        let cutoff = recordedAt - windowMicroseconds
        var excess = try state.count(Self.recentTable) - rememberedAtMost
        var expired: [[UInt8]] = []
        try state.scan(Self.recentTable) { key, value in
            guard expired.count < Self.prunedPerMessage,
                excess > 0 || Int64(Key.readPosition(value)) < cutoff
            else { return false }
            expired.append(Array(key))
            excess -= 1
            return true
        }
        for key in expired { try state.delete(Self.recentTable, key) }
    }

    /// At most this many messages are forgotten per recorded message: more than one, so the table shrinks back
    /// after a burst.
    static let prunedPerMessage = 4

    /// A value of `recentMessages`.
    struct RecentEntry {
        /// Microseconds since 1970.
        var recordedAt: Int64
        var device: [UInt8]
        var contentHash: ArraySlice<UInt8>

        init(_ value: UnsafeRawBufferPointer) {
            recordedAt = Int64(Key.readPosition(value))
            let bytes = Array(value[8...])
            device = Array(bytes.dropLast(64))
            contentHash = bytes.suffix(64)
        }
    }

    /// `namespace 0` SHA-256(topic).
    static func topicKey(_ ns: String, _ topic: String) -> [UInt8] {
        Key.joined(ns) + Array(SHA256.hash(data: Array(topic.utf8)))
    }
}
