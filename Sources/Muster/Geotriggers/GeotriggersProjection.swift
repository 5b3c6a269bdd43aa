import EventLog

/// Geotriggers and which of their fences each user's device is in:
/// `geotriggers`: `ns 0 id 0` → the `GeotriggerDefined` body;
/// `inside`: `ns 0 user 0 device 0 geotrigger 0 fence 0` → nothing. The user is part of the key
/// because a device id is only the reporter's word: another user's report for the same id is another
/// presence (version 2; version 1 keyed by device alone);
/// `stopped`: `ns 0 id` → nothing, for each geotrigger whose monitor is stopped. A monitor runs from
/// its geotrigger's definition on, so a log without start or stop events has none (version 3).
public struct GeotriggersProjection: Projection {
    public static let name = "geotriggers"
    public var name: String { Self.name }
    public var version: UInt32 { 3 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["geotriggers", "inside", "stopped"] }
    public var eventTypes: Set<String>? {
        [
            GeotriggerDefined.type, GeotriggerRemoved.type, GeotriggerNotified.type, GeotriggerMonitorStarted.type,
            GeotriggerMonitorStopped.type,
        ]
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        switch event.type {
        case GeotriggerDefined.type:
            let geotrigger = try GeotriggerDefined.decode(event)!.geotrigger
            try state.put("geotriggers", Key.joined(event.namespace, geotrigger.id), event.body.bytes)
        case GeotriggerRemoved.type:
            let removed = try GeotriggerRemoved.decode(event)!
            try state.delete("geotriggers", Key.joined(event.namespace, removed.id))
            try state.delete("stopped", Key.joined(event.namespace, removed.id))
        case GeotriggerMonitorStarted.type:
            let started = try GeotriggerMonitorStarted.decode(event)!
            try state.delete("stopped", Key.joined(event.namespace, started.id))
        case GeotriggerMonitorStopped.type:
            let stopped = try GeotriggerMonitorStopped.decode(event)!
            try state.put("stopped", Key.joined(event.namespace, stopped.id), [])
        case GeotriggerNotified.type:
            let notified = try GeotriggerNotified.decode(event)!
            let key = Key.joined(
                event.namespace, notified.user, notified.deviceId, notified.geotrigger, notified.fence)
            if notified.notificationType == "entered" {
                try state.put("inside", key, [])
            } else {
                try state.delete("inside", key)
            }
        default: break
        }
    }

}

extension LogSnapshot {
    /// The geotriggers in this snapshot.
    var geotriggers: ProjectionView<GeotriggersProjection> { get throws { try view(GeotriggersProjection()) } }
}

extension ProjectionView<GeotriggersProjection> {
    /// Every geotrigger of a namespace, by id.
    func geotriggers(namespace: String) throws -> [Geotrigger] {
        try events("geotriggers", prefix: Key.joined(namespace), as: GeotriggerDefined.self).map(\.geotrigger)
    }

    /// One geotrigger, or nil.
    func geotrigger(_ id: String, namespace: String) throws -> Geotrigger? {
        try event("geotriggers", Key.joined(namespace, id), as: GeotriggerDefined.self)?.geotrigger
    }

    /// Whether the monitor of geotrigger `id` runs (true for one never stopped, or started again).
    func isRunning(_ id: String, namespace: String) throws -> Bool {
        try state.get("stopped", Key.joined(namespace, id)) == nil
    }

    /// The fences of `geotrigger` the user's device is in.
    func fencesInside(user: String, deviceId: String, geotrigger: String, namespace: String) throws -> Set<String> {
        var inside = Set<String>()
        try state.scan("inside", prefix: Key.joined(namespace, user, deviceId, geotrigger)) { key, _ in
            inside.insert(RuleRun.lastComponent(key))
            return true
        }
        return inside
    }
}
