import EventLog

/// Users, groups and push targets of every namespace, kept inline so commands check them in the
/// same transaction as they append.
///
/// Tables (keys `namespace 0 …`): `users` name → `UserCreated` body (its profile as the last `UserChanged` and its
/// password as the last `PasswordChanged` set them), `groups` name → `GroupDefined`
/// body, `pushTargets` user 0 deviceId → `PushTargetRegistered` body, `userKeys` case-folded name
/// (`UserName.folded`) → the name of the first user that has it (version 2: older data directories
/// may hold several names that fold alike; the first keeps the key, and when it is removed the next alike takes it).
/// `UserRemoved` deletes the user's row (its devices and groups change by their own events). Version 3: `pushTargets` holds
/// `PushTargetRegistered` bodies of schema 2 (with `publishTopic`); rows written before are rebuilt.
public struct DirectoryProjection: Projection {
    public static let name = "directory"
    public var name: String { Self.name }
    public var version: UInt32 { 3 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["users", "groups", "pushTargets", "userKeys"] }
    public var eventTypes: Set<String>? {
        [
            UserCreated.type, PasswordChanged.type, UserChanged.type, UserRemoved.type, GroupDefined.type,
            GroupRemoved.type,
            PushTargetRegistered.type,
            PushTargetUnregistered.type,
        ]
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        if let user = try UserCreated.decode(event) {
            try state.put("users", Key.joined(ns, user.name), event.body.bytes)
            let folded = Key.joined(ns, UserName.folded(user.name))
            if try state.get("userKeys", folded) == nil { try state.put("userKeys", folded, Array(user.name.utf8)) }
        } else if let changed = try PasswordChanged.decode(event) {
            try update(changed.name, namespace: ns, in: state) { $0.password = changed.password }
        } else if let changed = try UserChanged.decode(event) {
            try update(changed.name, namespace: ns, in: state) { $0 = changed.applied(to: $0) }
        } else if let removed = try UserRemoved.decode(event) {
            try state.delete("users", Key.joined(ns, removed.name))
            try forget(removed.name, namespace: ns, in: state)
        } else if let group = try GroupDefined.decode(event) {
            try state.put("groups", Key.joined(ns, group.name), event.body.bytes)
        } else if let gone = try GroupRemoved.decode(event) {
            try state.delete("groups", Key.joined(ns, gone.name))
        } else if let target = try PushTargetRegistered.decode(event) {
            try state.put("pushTargets", Key.joined(ns, target.user, target.deviceId), event.body.bytes)
        } else if let gone = try PushTargetUnregistered.decode(event) {
            try state.delete("pushTargets", Key.joined(ns, gone.user, gone.deviceId))
        }
    }

    /// Rewrites the stored user `name` as `change` makes it; nothing when there is none.
    private func update(
        _ name: String, namespace ns: String, in state: ProjectionState, _ change: (inout UserCreated) -> Void
    ) throws {
        let key = Key.joined(ns, name)
        guard let stored = try state.get("users", key) else { return }
        var user = try stored.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try UserCreated(from: &reader)
        }
        change(&user)
        var writer = ByteWriter(capacity: stored.count + 16)
        user.encode(into: &writer)
        try state.put("users", key, writer.bytes)
    }

    /// Takes a removed user's name out of `userKeys`, or hands its key to another user whose name folds alike (only
    /// data directories older than version 2 of this projection may hold such a user).
    private func forget(_ name: String, namespace ns: String, in state: ProjectionState) throws {
        let folded = UserName.folded(name)
        let key = Key.joined(ns, folded)
        guard try state.get("userKeys", key) == Array(name.utf8) else { return }
        try state.delete("userKeys", key)
        var heir: [UInt8]?
        try state.scan("users", prefix: Key.joined(ns)) { _, value in
            var reader = ByteReader(value)
            let user = try UserCreated(from: &reader)
            if UserName.folded(user.name) == folded { heir = Array(user.name.utf8) }
            return heir == nil
        }
        if let heir { try state.put("userKeys", key, heir) }
    }
}

extension LogSnapshot {
    /// The directory in this snapshot.
    var directory: ProjectionView<DirectoryProjection> { get throws { try view(DirectoryProjection()) } }
}

extension ProjectionView<DirectoryProjection> {
    /// The user, or nil.
    func user(_ name: String, namespace: String) throws -> UserCreated? {
        try event("users", Key.joined(namespace, name))
    }

    /// The user a login names: the one of exactly this name, else the one whose name folds alike
    /// (`UserName.folded`), else nil.
    func user(matching name: String, namespace: String) throws -> UserCreated? {
        if let exact = try user(name, namespace: namespace) { return exact }
        guard let stored = try state.get("userKeys", Key.joined(namespace, UserName.folded(name))) else { return nil }
        return try user(String(decoding: stored, as: UTF8.self), namespace: namespace)
    }

    /// Every user of the namespace, by name.
    func users(namespace: String) throws -> [UserCreated] { try events("users", prefix: Key.joined(namespace)) }

    /// Whether the namespace has any user: a namespace exists once its first user does.
    func hasUsers(namespace: String) throws -> Bool {
        var found = false
        try state.scan("users", prefix: Key.joined(namespace)) { _, _ in
            found = true
            return false
        }
        return found
    }

    /// The group, or nil.
    func group(_ name: String, namespace: String) throws -> GroupDefined? {
        try event("groups", Key.joined(namespace, name))
    }

    /// Every group of the namespace, by name.
    func groups(namespace: String) throws -> [GroupDefined] { try events("groups", prefix: Key.joined(namespace)) }

    /// A registered device of `user`, or nil.
    func device(_ deviceId: String, user: String, namespace: String) throws -> PushTargetRegistered? {
        try event("pushTargets", Key.joined(namespace, user, deviceId))
    }

    /// The devices of one user, or of everyone in the namespace.
    func devices(user: String?, namespace: String) throws -> [PushTargetRegistered] {
        try events("pushTargets", prefix: user.map { Key.joined(namespace, $0) } ?? Key.joined(namespace))
    }

    /// The password hash of some user of the namespace (among its first 64), for a decoy check that
    /// costs what a real one does; nil when none has a password.
    func anyPasswordHash(namespace: String) throws -> PasswordHash? {
        var found: PasswordHash?
        var seen = 0
        try state.scan("users", prefix: Key.joined(namespace)) { _, value in
            var reader = ByteReader(value)
            found = try UserCreated(from: &reader).password
            seen += 1
            return found == nil && seen < 64
        }
        return found
    }

    /// The name `deviceId` was registered with, as the seed's ArsPushTarget would give it.
    func deviceName(_ deviceId: String, user: String, namespace: String) throws -> String? {
        try device(deviceId, user: user, namespace: namespace)?.deviceName
    }
}
