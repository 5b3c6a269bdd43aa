/// A named set of users of the namespace; a notification sent to it reaches each member once.
public struct Group: Sendable, Hashable, Codable {
    /// The group's name.
    public var name: String
    /// The members' usernames, in the order given, without duplicates.
    public var members: [String]

    /// Creates a group from its parts.
    public init(name: String, members: [String]) {
        self.name = name
        self.members = members
    }
}
