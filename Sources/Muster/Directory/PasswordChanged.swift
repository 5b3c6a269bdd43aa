import EventLog

/// A user's password was set anew — by an administrator, or by the user, who knew the old one. Logins check the
/// new one from now on, and every session the user had open ends (`TokenRevoked`, reason `passwordChanged`, in the
/// same append).
public struct PasswordChanged: DomainEvent, Hashable {
    public static let type = "PasswordChanged"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    public var password: PasswordHash

    public init(name: String, password: PasswordHash) {
        self.name = name
        self.password = password
    }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        password.encode(into: &w)
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("user name")
        password = try PasswordHash(from: &r)
    }

    /// The audit shape never shows the hash.
    private enum CodingKeys: String, CodingKey { case name }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
    }
}
