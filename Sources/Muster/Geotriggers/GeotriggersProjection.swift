import EventLog

/// Geotriggers and which of their fences each user's device is in:
/// `geotriggers`: `ns 0 id 0` → the `GeotriggerDefined` body;
/// `inside`: `ns 0 user 0 device 0 geotrigger 0 fence 0` → nothing. The user is part of the key
/// because a device id is only the reporter's word: another user's report for the same id is another
/// presence (version 2; version 1 keyed by device alone).
public struct GeotriggersProjection: Projection {
    public static let name = "geotriggers"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["geotriggers", "inside"] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        switch event.type {
        case GeotriggerDefined.type:
            let geotrigger = try GeotriggerDefined.decode(event)!.geotrigger
            try state.put("geotriggers", DirectoryProjection.key(event.namespace, geotrigger.id), event.body.bytes)
        case GeotriggerRemoved.type:
            let removed = try GeotriggerRemoved.decode(event)!
            try state.delete("geotriggers", DirectoryProjection.key(event.namespace, removed.id))
        case GeotriggerNotified.type:
            let notified = try GeotriggerNotified.decode(event)!
            let key = DirectoryProjection.key(
                event.namespace, notified.user, notified.deviceId, notified.geotrigger, notified.fence)
            if notified.notificationType == "entered" {
                try state.put("inside", key, [])
            } else {
                try state.delete("inside", key)
            }
        default: break
        }
    }

    static func all(_ namespace: String, _ state: ProjectionState) throws -> [Geotrigger] {
        var result: [Geotrigger] = []
        try state.scan("geotriggers", prefix: DirectoryProjection.key(namespace)) { _, value in
            var reader = ByteReader(value)
            result.append(try GeotriggerDefined(from: &reader).geotrigger)
            return true
        }
        return result
    }
}
