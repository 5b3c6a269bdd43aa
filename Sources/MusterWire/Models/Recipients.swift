/// Whom a notification goes to: users, the members of groups, or everyone in the namespace.
///
/// `.users("anna", "ben")`, `.groups("drivers")`, `.all`, or both lists with `Recipients(users:groups:)`.
public struct Recipients: Sendable, Hashable {
    /// Usernames.
    public var users: [String]
    /// Group names; each group's members receive it once.
    public var groups: [String]
    /// Everyone in the namespace.
    public var all: Bool

    /// Users and the members of groups.
    public init(users: [String] = [], groups: [String] = []) {
        self.users = users
        self.groups = groups
        self.all = false
    }

    /// The named users.
    public static func users(_ names: String...) -> Recipients { Recipients(users: names) }

    /// The named users.
    public static func users(_ names: [String]) -> Recipients { Recipients(users: names) }

    /// The members of the named groups.
    public static func groups(_ names: String...) -> Recipients { Recipients(groups: names) }

    /// The members of the named groups.
    public static func groups(_ names: [String]) -> Recipients { Recipients(groups: names) }

    /// Everyone in the namespace.
    public static var all: Recipients {
        var everyone = Recipients()
        everyone.all = true
        return everyone
    }
}
