import EventLog

/// Users, groups and push targets of every namespace, kept inline so commands check them in the
/// same transaction as they append.
///
/// Tables (keys `namespace 0 …`): `users` name → `UserCreated` body, `groups` name → `GroupDefined`
/// body, `pushTargets` user 0 deviceId → `PushTargetRegistered` body, `userKeys` case-folded name
/// (`UserName.folded`) → the name of the first user that has it (version 2: older data directories
/// may hold several names that fold alike; the first keeps the key).
public struct DirectoryProjection: Projection {
    public static let name = "directory"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["users", "groups", "pushTargets", "userKeys"] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        if let user = try UserCreated.decode(event) {
            try state.put("users", Self.key(ns, user.name), event.body.bytes)
            let folded = Self.key(ns, UserName.folded(user.name))
            if try state.get("userKeys", folded) == nil { try state.put("userKeys", folded, Array(user.name.utf8)) }
        } else if let group = try GroupDefined.decode(event) {
            try state.put("groups", Self.key(ns, group.name), event.body.bytes)
        } else if let target = try PushTargetRegistered.decode(event) {
            try state.put("pushTargets", Self.key(ns, target.user, target.deviceId), event.body.bytes)
        } else if let gone = try PushTargetUnregistered.decode(event) {
            try state.delete("pushTargets", Self.key(ns, gone.user, gone.deviceId))
        }
    }

    /// `a 0 b 0 …`: names cannot contain NUL, so a prefix finds one namespace or one user.
    static func key(_ parts: String...) -> [UInt8] {
        var key: [UInt8] = []
        for part in parts {
            key.append(contentsOf: part.utf8)
            key.append(0)
        }
        return key
    }
}
