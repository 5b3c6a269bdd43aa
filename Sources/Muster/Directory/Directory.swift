import EventLog
import Foundation

/// The people of a namespace: users, groups and the devices they receive pushes on.
///
/// Every change is an event; checks (does the user exist, is the name taken) read the directory
/// projection inside the writer's transaction, so two concurrent commands cannot both pass them.
public struct Directory: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// The fewest characters of a new user's password, unless the caller asks for more.
    public static let minimumPasswordLength = 8

    // MARK: Users

    /// Creates a user, its name in NFC (`UserName`). Fails with `.conflict` when the name, compared
    /// case-folded, is taken in the namespace, and with `.invalidArgument` for a name that breaks
    /// `UserName.rules` or a password shorter than `minimumPasswordLength` characters.
    /// - Parameters:
    ///   - firstName, lastName, phone: optional; an empty string counts as not given.
    @discardableResult
    public func addUser(
        _ name: String, password: String?, email: String? = nil, timeZone: String = "UTC", isAdmin: Bool = false,
        firstName: String? = nil, lastName: String? = nil, phone: String? = nil,
        namespace: String = Names.defaultNamespace, actor: String = "system",
        minimumPasswordLength: Int = Directory.minimumPasswordLength
    ) async throws -> UserCreated {
        let name = try UserName.validated(name)
        try Names.validate(namespace, as: "namespace")
        guard TimeZone(identifier: timeZone) != nil else {
            throw MusterError(
                .invalidArgument,
                "time zone \(String(reflecting: timeZone)) is not an IANA zone such as Europe/Paris or UTC")
        }
        if let email, !email.contains("@") {
            throw MusterError(.invalidArgument, "email \(String(reflecting: email)) has no @")
        }
        var hash: PasswordHash?
        if let password {
            try Self.checkPassword(password, minimumLength: minimumPasswordLength)
            // Hashing takes tens of milliseconds: done here, never on the writer thread.
            hash = try await PasswordHash.make(password)
        }
        func given(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        let user = UserCreated(
            name: name, email: email, timeZone: timeZone, isAdmin: isAdmin,
            password: hash, firstName: given(firstName),
            lastName: given(lastName), phone: given(phone))
        try await log.perform { scope in
            let directory = try scope.projection(DirectoryProjection.name)
            if let taken = try Self.user(matching: name, namespace, directory) {
                let same = taken.name == name ? "" : " as \(String(reflecting: taken.name)) (names differ in case only)"
                throw MusterError(
                    .conflict, "user \(String(reflecting: name)) already exists in namespace \(namespace)\(same)")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "user/\(name)", expectedVersion: .noStream,
                    events: [user.newEvent(actor: actor)]))
        }
        return user
    }

    /// Throws `.invalidArgument` (field `password`) for a new password shorter than `minimumLength` characters.
    public static func checkPassword(_ password: String, minimumLength: Int = minimumPasswordLength) throws {
        guard password.count >= max(1, minimumLength) else {
            throw MusterError(
                .invalidArgument,
                "password is \(password.count) character\(password.count == 1 ? "" : "s") long; at least \(max(1, minimumLength)) are needed",
                field: "password")
        }
    }

    /// The user, or nil.
    public func user(_ name: String, namespace: String = Names.defaultNamespace) throws -> UserCreated? {
        try log.read { try Self.user(name, namespace, $0.projection(DirectoryProjection.name)) }
    }

    /// Every user of the namespace, by name.
    public func users(namespace: String = Names.defaultNamespace) throws -> [UserCreated] {
        try log.read { reader in
            try Self.all("users", namespace, reader.projection(DirectoryProjection.name), as: UserCreated.self)
        }
    }

    // MARK: Groups

    /// Defines (or redefines) a group. Every member must be a user of the namespace; duplicates are
    /// dropped, keeping the first.
    @discardableResult
    public func defineGroup(
        _ name: String, members: [String], namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> GroupDefined {
        try Names.validate(name, as: "group name")
        var seen = Set<String>()
        let group = GroupDefined(name: name, members: members.filter { seen.insert($0).inserted })
        try await log.perform { scope in
            let directory = try scope.projection(DirectoryProjection.name)
            let unknown = try group.members.filter { try Self.user($0, namespace, directory) == nil }
            guard unknown.isEmpty else {
                throw MusterError(
                    .invalidArgument,
                    "group \(name): no user named \(unknown.joined(separator: ", ")) in namespace \(namespace); add them first (muster users add)"
                )
            }
            try scope.append(
                AppendRequest(namespace: namespace, stream: "group/\(name)", events: [group.newEvent(actor: actor)]))
        }
        return group
    }

    /// Every group of the namespace, by name.
    public func groups(namespace: String = Names.defaultNamespace) throws -> [GroupDefined] {
        try log.read { reader in
            try Self.all("groups", namespace, reader.projection(DirectoryProjection.name), as: GroupDefined.self)
        }
    }

    // MARK: Push targets

    /// Registers a device of an existing user, or updates it when the device id is registered already.
    public func register(
        _ target: PushTargetRegistered, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws {
        try Names.validate(target.deviceId, as: "device id")
        try Names.validate(target.deviceName, as: "device name")
        try await log.perform { scope in
            guard try Self.user(target.user, namespace, scope.projection(DirectoryProjection.name)) != nil else {
                throw MusterError(
                    .notFound, "no user named \(String(reflecting: target.user)) in namespace \(namespace)")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "devices/\(target.user)", events: [target.newEvent(actor: actor)]))
        }
    }

    /// Unregisters a device; returns false when it was not registered (nothing is written then).
    @discardableResult
    public func unregister(
        user: String, deviceId: String, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> Bool {
        try await log.perform { scope in
            let key = DirectoryProjection.key(namespace, user, deviceId)
            guard try scope.projection(DirectoryProjection.name).get("pushTargets", key) != nil else { return false }
            let event = PushTargetUnregistered(user: user, deviceId: deviceId)
            try scope.append(
                AppendRequest(namespace: namespace, stream: "devices/\(user)", events: [event.newEvent(actor: actor)]))
            return true
        }
    }

    /// The devices of one user, or of everyone in the namespace.
    public func devices(user: String? = nil, namespace: String = Names.defaultNamespace) throws
        -> [PushTargetRegistered]
    {
        try log.read { reader in
            let state = try reader.projection(DirectoryProjection.name)
            var prefix = DirectoryProjection.key(namespace)
            if let user { prefix += DirectoryProjection.key(user) }
            return try Self.decodeAll(state, "pushTargets", prefix: prefix, as: PushTargetRegistered.self)
        }
    }

    // MARK: Reading the projection

    static func user(_ name: String, _ namespace: String, _ state: ProjectionState) throws -> UserCreated? {
        try state.get("users", DirectoryProjection.key(namespace, name)).map { try decode($0, as: UserCreated.self) }
    }

    /// The user a login names: the one of exactly this name, else the one whose name folds alike
    /// (`UserName.folded`), else nil.
    static func user(matching name: String, _ namespace: String, _ state: ProjectionState) throws -> UserCreated? {
        if let exact = try user(name, namespace, state) { return exact }
        let key = DirectoryProjection.key(namespace, UserName.folded(name))
        guard let stored = try state.get("userKeys", key) else { return nil }
        return try user(String(decoding: stored, as: UTF8.self), namespace, state)
    }

    /// The password hash of some user of the namespace (among its first 64), for a decoy check that
    /// costs what a real one does; nil when none has a password.
    static func anyPasswordHash(_ namespace: String, _ state: ProjectionState) throws -> PasswordHash? {
        var found: PasswordHash?
        var seen = 0
        try state.scan("users", prefix: DirectoryProjection.key(namespace)) { _, value in
            var reader = ByteReader(value)
            found = try UserCreated(from: &reader).password
            seen += 1
            return found == nil && seen < 64
        }
        return found
    }

    private static func all<E: DomainEvent>(_ table: String, _ namespace: String, _ state: ProjectionState, as: E.Type)
        throws -> [E]
    {
        try decodeAll(state, table, prefix: DirectoryProjection.key(namespace), as: E.self)
    }

    private static func decodeAll<E: DomainEvent>(
        _ state: ProjectionState, _ table: String, prefix: [UInt8], as: E.Type
    ) throws -> [E] {
        var result: [E] = []
        try state.scan(table, prefix: prefix) { _, value in
            var reader = ByteReader(value)
            result.append(try E(from: &reader))
            return true
        }
        return result
    }

    private static func decode<E: DomainEvent>(_ bytes: [UInt8], as: E.Type) throws -> E {
        try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try E(from: &reader)
        }
    }
}
