import EventLog

/// Who registered each device id, so a report for a device can be checked against its owner in the
/// writer's transaction (the directory keeps push targets by user, which cannot answer that
/// without a scan of the namespace):
///
/// - `owners`: `ns 0 device 0 user 0` → nothing; a device id registered by several users has one
///   key for each.
public struct DeviceOwnersProjection: Projection {
    public static let name = "deviceOwners"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["owners"] }
    public var eventTypes: Set<String>? { [PushTargetRegistered.type, PushTargetUnregistered.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        switch event.type {
        case PushTargetRegistered.type:
            let target = try PushTargetRegistered.decode(event)!
            try state.put("owners", Key.joined(event.namespace, target.deviceId, target.user), [])
        case PushTargetUnregistered.type:
            let gone = try PushTargetUnregistered.decode(event)!
            try state.delete("owners", Key.joined(event.namespace, gone.deviceId, gone.user))
        default: break
        }
    }

}

extension ProjectionView<DeviceOwnersProjection> {
    /// The users who registered `deviceId` in the namespace; empty when nobody did.
    func owners(of deviceId: String, namespace: String) throws -> [String] {
        var owners: [String] = []
        try state.scan("owners", prefix: Key.joined(namespace, deviceId)) { key, _ in
            owners.append(RuleRun.lastComponent(key))
            return true
        }
        return owners
    }
}
