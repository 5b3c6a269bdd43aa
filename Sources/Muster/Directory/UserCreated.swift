import EventLog

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

    public init(name: String, email: String?, timeZone: String, isAdmin: Bool, password: PasswordHash?) {
        self.name = name
        self.email = email
        self.timeZone = timeZone
        self.isAdmin = isAdmin
        self.password = password
    }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(email ?? "")
        w.write(timeZone)
        w.write(isAdmin)
        w.write(password != nil)
        if let password { password.encode(into: &w) }
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("user name")
        let email = try r.readString("email")
        self.email = email.isEmpty ? nil : email
        timeZone = try r.readString("time zone")
        isAdmin = try r.readBool("admin flag")
        password = try r.readBool("password flag") ? try PasswordHash(from: &r) : nil
    }

    /// The audit shape never shows the hash.
    private enum CodingKeys: String, CodingKey { case name, email, timeZone, isAdmin, hasPassword }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(isAdmin, forKey: .isAdmin)
        try c.encode(password != nil, forKey: .hasPassword)
    }
}
