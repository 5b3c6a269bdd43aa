import EventLog
import Foundation

/// The notices handed to devices' applications and where each stands, and which devices chose their own trace
/// logging.
///
/// Tables:
/// - `notices`: `ns 0 noticeId 0` → state (0 pending, 1 performed, 2 dismissed) + varint position of the
///   `AreaNotificationHanded`.
/// - `pending`: `ns 0 user 0 deviceId 0 noticeId 0` → varint position of the `AreaNotificationHanded`.
/// - `trace`: `ns 0 user 0 deviceId` → 1 (on) or 0 (off); no key: the device follows the namespace's setting.
public struct NoticesProjection: Projection {
    public static let name = "notices"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["notices", "pending", "trace"] }
    public var eventTypes: Set<String>? {
        [
            AreaNotificationHanded.type, AreaNotificationPerformed.type, AreaNotificationDismissed.type,
            DeviceTraceLoggingSet.type,
        ]
    }

    /// Where a notice stands.
    public enum State: UInt8, Sendable {
        case pending = 0
        case performed = 1
        case dismissed = 2
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        if let handed = try AreaNotificationHanded.decode(event) {
            let id = handed.noticeId.uuidString
            try state.put("notices", Key.joined(ns, id), Self.entry(.pending, event.position))
            try state.put("pending", Key.joined(ns, handed.user, handed.deviceId, id), Self.entry(nil, event.position))
        } else if let performed = try AreaNotificationPerformed.decode(event) {
            try settle(performed.noticeId, performed.user, performed.deviceId, as: .performed, ns, state)
        } else if let dismissed = try AreaNotificationDismissed.decode(event) {
            try settle(dismissed.noticeId, dismissed.user, dismissed.deviceId, as: .dismissed, ns, state)
        } else if let trace = try DeviceTraceLoggingSet.decode(event) {
            let key = Key.joined(ns, trace.user, trace.deviceId)
            if let enabled = trace.enabled {
                try state.put("trace", key, [enabled ? 1 : 0])
            } else {
                try state.delete("trace", key)
            }
        }
    }

    private func settle(
        _ noticeId: UUID, _ user: String, _ deviceId: String, as settled: State, _ ns: String,
        _ state: ProjectionState
    ) throws {
        let id = noticeId.uuidString
        guard let stored = try state.get("notices", Key.joined(ns, id)) else { return }
        let handed = try Self.read(stored).position
        try state.put("notices", Key.joined(ns, id), Self.entry(settled, handed))
        try state.delete("pending", Key.joined(ns, user, deviceId, id))
    }

    /// A state byte (none for `pending` table values) and a varint position.
    static func entry(_ state: State?, _ position: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 11)
        if let state { writer.write(state.rawValue) }
        writer.write(varint: position)
        return writer.bytes
    }

    static func read(_ value: [UInt8]) throws -> (state: State, position: UInt64) {
        try value.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            let byte = try reader.readByte("state")
            guard let state = State(rawValue: byte) else { throw StoreError(.corrupt, "notice state \(byte)") }
            return (state, try reader.readVarint("position"))
        }
    }
}

extension ProjectionView<NoticesProjection> {
    /// Where a notice stands and the position of its `AreaNotificationHanded`; nil when no such notice.
    func notice(_ id: UUID, namespace: String) throws -> (state: NoticesProjection.State, position: UInt64)? {
        try state.get("notices", Key.joined(namespace, id.uuidString)).map(NoticesProjection.read)
    }

    /// The positions of the notices waiting for the app on one user's device, oldest first.
    func pending(user: String, deviceId: String, namespace: String) throws -> [UInt64] {
        var positions: [UInt64] = []
        try state.scan("pending", prefix: Key.joined(namespace, user, deviceId)) { _, value in
            var reader = ByteReader(value)
            positions.append(try reader.readVarint("position"))
            return true
        }
        return positions.sorted()
    }

    /// The device's own trace logging choice; nil when it follows the namespace's setting.
    func traceLogging(user: String, deviceId: String, namespace: String) throws -> Bool? {
        try state.get("trace", Key.joined(namespace, user, deviceId)).map { $0 == [1] }
    }
}
