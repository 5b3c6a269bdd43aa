/// The body of `PATCH /api/v1/users/{name}` (`muster users set`): what changes in a user's profile. A member left out
/// (or null) stays as it is; an empty `email`, `firstName`, `lastName` or `phone` clears it.
public struct UserChanges: Sendable, Hashable, Codable {
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    /// An IANA time zone, e.g. `Europe/Paris`: the user's daily quota counts in it.
    public var timeZone: String?
    /// Whether the user administers the namespace.
    public var isAdmin: Bool?

    /// Creates changes from their parts; nil leaves a member as it is.
    public init(
        email: String? = nil, firstName: String? = nil, lastName: String? = nil, phone: String? = nil,
        timeZone: String? = nil, isAdmin: Bool? = nil
    ) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.timeZone = timeZone
        self.isAdmin = isAdmin
    }

    /// Whether nothing is asked to change.
    public var isEmpty: Bool { self == UserChanges() }
}
