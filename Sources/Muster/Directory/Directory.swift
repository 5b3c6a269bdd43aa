import EventLog
import Foundation
import MusterWire

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

    /// Creates a user, its name in NFC (`UserName`). Fails with `.conflict` when the name, compared case-folded, is
    /// taken in the namespace or was exactly a removed user's, and with `.invalidArgument` for a name that breaks
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
        try Self.checkProfile(timeZone: timeZone, email: email)
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
            // The first user makes the namespace, which names a data directory in a cluster and is part of every
            // login: a new one follows the rules of new names. Namespaces made before keep working.
            if try !scope.directory.hasUsers(namespace: namespace) {
                let checked = try UserName.validated(namespace, as: "namespace")
                // Bytes, not `==`, which holds for canonically equivalent strings.
                guard Array(checked.utf8) == Array(namespace.utf8) else {
                    throw MusterError(
                        .invalidArgument,
                        "namespace \(String(reflecting: namespace)) is not written in Unicode NFC; write it as "
                            + String(reflecting: checked),
                        field: "namespace")
                }
            }
            if let taken = try scope.directory.user(matching: name, namespace: namespace) {
                let same = taken.name == name ? "" : " as \(String(reflecting: taken.name)) (names differ in case only)"
                throw MusterError(
                    .conflict, "user \(String(reflecting: name)) already exists in namespace \(namespace)\(same)")
            }
            // A name is its user's in the log for good — their answers, uploads, counters and audit go by it — so a
            // removed user's is not given to anyone else.
            guard try scope.streamVersion(namespace: namespace, stream: Streams.user(name)) == 0 else {
                throw MusterError(
                    .conflict,
                    "user \(String(reflecting: name)) was removed from namespace \(namespace), and a name stays its "
                        + "user's in the log (their answers, uploads and audit); choose another name",
                    field: "username")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.user(name), expectedVersion: .noStream,
                    events: [user.newEvent(actor: actor)]))
        }
        return user
    }

    /// Throws `.invalidArgument` naming `timeZone` for a zone that is not IANA's, or `email` for an address without @.
    static func checkProfile(timeZone: String?, email: String?) throws {
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw MusterError(
                .invalidArgument,
                "time zone \(String(reflecting: timeZone)) is not an IANA zone such as Europe/Paris or UTC",
                field: "timeZone")
        }
        if let email, !email.isEmpty, !email.contains("@") {
            throw MusterError(.invalidArgument, "email \(String(reflecting: email)) has no @", field: "email")
        }
    }

    /// Changes `name`'s profile: what `changes` names, the rest as it is (an empty text clears an optional member).
    /// Appends `UserChanged` unless nothing would change. Fails with `.notFound` for a user the namespace does not
    /// have and `.invalidArgument` for a time zone or email `checkProfile` refuses. Returns the user as stored now.
    @discardableResult
    public func changeUser(
        _ name: String, _ changes: UserChanges, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> UserCreated {
        try Names.validate(namespace, as: "namespace")
        try Self.checkProfile(timeZone: changes.timeZone, email: changes.email)
        return try await log.perform { scope in
            guard let user = try scope.directory.user(name, namespace: namespace) else {
                throw MusterError(.notFound, "no user named \(name) in namespace \(namespace)", field: "user")
            }
            let changed = UserChanged(user, applying: changes)
            let now = changed.applied(to: user)
            guard now != user else { return user }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.user(user.name), events: [changed.newEvent(actor: actor)]))
            return now
        }
    }

    /// Sets `name`'s password anew and ends every session the user has open but `keeping` (their devices log in
    /// again), in one append. Fails with `.notFound` for a user the namespace does not have and `.invalidArgument` (field
    /// `password`) for a password `checkPassword` refuses. Whoever may do it is the caller's to decide: an
    /// administrator, or the user after ``passwordMatches(_:user:namespace:)`` with the old one. Returns the user
    /// as stored now.
    @discardableResult
    public func changePassword(
        _ name: String, to password: String, keeping: UUID? = nil, namespace: String = Names.defaultNamespace,
        actor: String = "system", minimumPasswordLength: Int = Directory.minimumPasswordLength
    ) async throws -> UserCreated {
        try Names.validate(namespace, as: "namespace")
        try Self.checkPassword(password, minimumLength: minimumPasswordLength)
        // Hashing takes tens of milliseconds: done here, never on the writer thread.
        let hash = try await PasswordHash.make(password)
        return try await log.perform { scope in
            guard var user = try scope.directory.user(name, namespace: namespace) else {
                throw MusterError(.notFound, "no user named \(name) in namespace \(namespace)", field: "user")
            }
            let changed = PasswordChanged(name: user.name, password: hash)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.user(user.name), events: [changed.newEvent(actor: actor)]))
            for session in try scope.sessions.openSessions(user: user.name, namespace: namespace)
            where session.sessionId != keeping {
                let revoked = TokenRevoked(
                    sessionId: session.sessionId, user: user.name, deviceId: session.deviceId,
                    reason: .passwordChanged)
                try scope.append(
                    AppendRequest(
                        namespace: namespace, stream: Sessions.stream(session.sessionId),
                        events: [revoked.newEvent(actor: actor)]))
            }
            user.password = hash
            return user
        }
    }

    /// Removes `name` from the namespace, in one append: `UserRemoved`, then the end of every session of theirs, the
    /// unregistering of each of their devices and each group they were in defined again without them (a group left
    /// empty stays, empty). Fails with `.notFound` for a user the namespace does not have. Who may do it is the
    /// caller's to decide. The name is not given to anyone again (`addUser`). Returns what was removed with the user.
    @discardableResult
    public func removeUser(_ name: String, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws -> UserRemoval
    {
        try Names.validate(namespace, as: "namespace")
        return try await log.perform { scope in
            let directory = try scope.directory
            guard let user = try directory.user(name, namespace: namespace) else {
                throw MusterError(.notFound, "no user named \(name) in namespace \(namespace)", field: "user")
            }
            func append(_ stream: String, _ event: some DomainEvent) throws {
                try scope.append(
                    AppendRequest(namespace: namespace, stream: stream, events: [event.newEvent(actor: actor)]))
            }
            try append(Streams.user(user.name), UserRemoved(name: user.name))
            let sessions = try scope.sessions.openSessions(user: user.name, namespace: namespace)
            for session in sessions {
                try append(
                    Sessions.stream(session.sessionId),
                    TokenRevoked(
                        sessionId: session.sessionId, user: user.name, deviceId: session.deviceId,
                        reason: .userRemoved))
            }
            let devices = try directory.devices(user: user.name, namespace: namespace)
            for device in devices {
                try append(
                    Streams.devices(of: user.name),
                    PushTargetUnregistered(user: user.name, deviceId: device.deviceId, reason: "the user was removed"))
            }
            var groups: [String] = []
            for var group in try directory.groups(namespace: namespace) where group.members.contains(user.name) {
                group.members.removeAll { $0 == user.name }
                try append(Streams.group(group.name), group)
                groups.append(group.name)
            }
            return UserRemoval(
                name: user.name, sessionsEnded: sessions.count, devicesUnregistered: devices.map(\.deviceId),
                groupsLeft: groups)
        }
    }

    /// Whether `password` is `user`'s (false for a user without one, or none of that name); as slow as a login's
    /// check, and off the writer.
    public func passwordMatches(_ password: String, user: String, namespace: String = Names.defaultNamespace)
        async throws -> Bool
    {
        guard let hash = try log.read({ try $0.directory.user(user, namespace: namespace) })?.password else {
            _ = await PasswordHash.decoy.matches(password)
            return false
        }
        return await hash.matches(password)
    }

    /// The longest password taken, in characters: far beyond any passphrase, and a login body carrying it stays well
    /// within the server's body limit (a 5 MB password was stored and could never be sent to log in).
    public static let maximumPasswordLength = 1024

    /// Throws `.invalidArgument` (field `password`) for a new password shorter than `minimumLength` characters or
    /// longer than `maximumPasswordLength`.
    public static func checkPassword(_ password: String, minimumLength: Int = minimumPasswordLength) throws {
        guard password.count >= max(1, minimumLength) else {
            throw MusterError(
                .invalidArgument,
                "password is \(password.count) character\(password.count == 1 ? "" : "s") long; at least \(max(1, minimumLength)) are needed",
                field: "password")
        }
        guard password.count <= maximumPasswordLength else {
            throw MusterError(
                .invalidArgument,
                "password is \(password.count) characters long; at most \(maximumPasswordLength) are taken",
                field: "password")
        }
    }

    /// The user, or nil.
    public func user(_ name: String, namespace: String = Names.defaultNamespace) throws -> UserCreated? {
        try log.read { try $0.directory.user(name, namespace: namespace) }
    }

    /// Every user of the namespace, by name.
    public func users(namespace: String = Names.defaultNamespace) throws -> [UserCreated] {
        try log.read { try $0.directory.users(namespace: namespace) }
    }
}
