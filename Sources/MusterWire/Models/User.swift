/// A user account as the server describes it after creating it.
public struct User: Sendable, Hashable, Codable {
    /// The name the user logs in with.
    public var username: String
    /// The user's email address.
    public var email: String?
    /// The user's first name.
    public var firstName: String?
    /// The user's last name.
    public var lastName: String?
    /// The user's phone number.
    public var phone: String?
    /// Whether the user administers the namespace.
    public var isAdmin: Bool
    /// The user's IANA time zone, e.g. `Europe/Paris`.
    public var timeZone: String
    /// Whether the user can log in with a password (one made for an OpenID Connect issuer's `sub` cannot); nil when
    /// the server does not say (before 0.2.0).
    public var hasPassword: Bool?

    /// Creates a user from its parts.
    public init(
        username: String, email: String? = nil, firstName: String? = nil, lastName: String? = nil,
        phone: String? = nil, isAdmin: Bool = false, timeZone: String, hasPassword: Bool? = nil
    ) {
        self.username = username
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.isAdmin = isAdmin
        self.timeZone = timeZone
        self.hasPassword = hasPassword
    }
}
