import EventLog
import MusterWire

/// A user's profile was changed (`muster users set`, `PATCH /api/v1/users/{name}`): the event holds the profile as it
/// is now, all but the password, which only `PasswordChanged` sets.
public struct UserChanged: DomainEvent, Hashable, Codable {
    public static let type = "UserChanged"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    public var email: String?
    public var timeZone: String
    public var isAdmin: Bool
    public var firstName: String?
    public var lastName: String?
    public var phone: String?

    /// The profile of `user` with `changes` applied (an empty text clears an optional member).
    init(_ user: UserCreated, applying changes: UserChanges) {
        func apply(_ change: String?, to value: String?) -> String? {
            guard let change else { return value }
            return change.isEmpty ? nil : change
        }
        name = user.name
        email = apply(changes.email, to: user.email)
        timeZone = changes.timeZone ?? user.timeZone
        isAdmin = changes.isAdmin ?? user.isAdmin
        firstName = apply(changes.firstName, to: user.firstName)
        lastName = apply(changes.lastName, to: user.lastName)
        phone = apply(changes.phone, to: user.phone)
    }

    /// `user` with this profile, its password kept.
    func applied(to user: UserCreated) -> UserCreated {
        UserCreated(
            name: user.name, email: email, timeZone: timeZone, isAdmin: isAdmin, password: user.password,
            firstName: firstName, lastName: lastName, phone: phone)
    }
}
