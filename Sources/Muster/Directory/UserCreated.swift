import EventLog
import MusterWire

/// A person who can receive notifications and answer them, in one namespace.
public struct UserCreated: DomainEvent, Hashable {
    public static let type = "UserCreated"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    public var email: String?
    /// IANA time zone; daily quotas count in it.
    public var timeZone: String
    public var isAdmin: Bool
    /// Absent for users who authenticate elsewhere (OAuth).
    public var password: PasswordHash?
    /// Name parts and phone number (the VantiqUI user-creation fields). Written after the other
    /// fields only when one is present, so users without them keep the bytes schema 1 always had.
    public var firstName: String?
    public var lastName: String?
    public var phone: String?

    public init(
        name: String, email: String?, timeZone: String, isAdmin: Bool, password: PasswordHash?,
        firstName: String? = nil, lastName: String? = nil, phone: String? = nil
    ) {
        self.name = name
        self.email = email
        self.timeZone = timeZone
        self.isAdmin = isAdmin
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
    }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(email ?? "")
        w.write(timeZone)
        w.write(isAdmin)
        w.write(password != nil)
        if let password { password.encode(into: &w) }
        // All three or none: an empty string stands for nil, as for `email`.
        if firstName != nil || lastName != nil || phone != nil {
            w.write(firstName ?? "")
            w.write(lastName ?? "")
            w.write(phone ?? "")
        }
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("user name")
        let email = try r.readString("email")
        self.email = email.isEmpty ? nil : email
        timeZone = try r.readString("time zone")
        isAdmin = try r.readBool("admin flag")
        password = try r.readBool("password flag") ? try PasswordHash(from: &r) : nil
        guard r.remaining > 0 else { return }
        func optional(_ text: String) -> String? { text.isEmpty ? nil : text }
        firstName = optional(try r.readString("first name"))
        lastName = optional(try r.readString("last name"))
        phone = optional(try r.readString("phone"))
    }

    /// The audit shape never shows the hash.
    private enum CodingKeys: String, CodingKey {
        case name, email, timeZone, isAdmin, hasPassword, firstName, lastName, phone
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(isAdmin, forKey: .isAdmin)
        try c.encode(password != nil, forKey: .hasPassword)
        try c.encodeIfPresent(firstName, forKey: .firstName)
        try c.encodeIfPresent(lastName, forKey: .lastName)
        try c.encodeIfPresent(phone, forKey: .phone)
    }
}

extension User {
    /// The user as the wire shows it: never the password hash, only whether there is one.
    public init(_ user: UserCreated) {
        self.init(
            username: user.name, email: user.email, firstName: user.firstName, lastName: user.lastName,
            phone: user.phone, isAdmin: user.isAdmin, timeZone: user.timeZone, hasPassword: user.password != nil)
    }
}
