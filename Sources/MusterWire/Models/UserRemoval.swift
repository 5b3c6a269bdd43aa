/// What removing a user took with them (`DELETE /api/v1/users/{name}`, `muster users remove`).
public struct UserRemoval: Sendable, Hashable, Codable {
    /// The removed user's name.
    public var name: String
    /// How many sessions of theirs ended: their devices and browsers are signed out.
    public var sessionsEnded: Int
    /// The ids of their devices, unregistered: nothing is pushed to them any more.
    public var devicesUnregistered: [String]
    /// The groups they were in, defined again without them.
    public var groupsLeft: [String]

    /// Creates a removal from its parts.
    public init(name: String, sessionsEnded: Int, devicesUnregistered: [String], groupsLeft: [String]) {
        self.name = name
        self.sessionsEnded = sessionsEnded
        self.devicesUnregistered = devicesUnregistered
        self.groupsLeft = groupsLeft
    }
}
