/// The body of `POST /users` (createInternalUser).
public struct NewUserBody: Sendable, Hashable, Codable {
    public var username: String
    public var password: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    /// The user's IANA time zone, e.g. `Europe/Paris`; nil for UTC.
    public var timeZone: String?
    /// True for an administrator of the namespace (only an administrator may ask for it).
    public var isAdmin: Bool?

    /// Creates a new user's body from its parts.
    public init(
        username: String, password: String, email: String? = nil, firstName: String? = nil, lastName: String? = nil,
        phone: String? = nil, timeZone: String? = nil, isAdmin: Bool? = nil
    ) {
        self.username = username
        self.password = password
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.timeZone = timeZone
        self.isAdmin = isAdmin
    }
}
