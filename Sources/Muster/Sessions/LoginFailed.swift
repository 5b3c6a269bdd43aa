import EventLog

/// A login was refused. Recorded in the namespace even for names no user has, so guessing names is
/// throttled (and audited) like guessing passwords.
public struct LoginFailed: DomainEvent, Hashable {
    public static let type = "LoginFailed"
    public static let schemaVersion: UInt16 = 1

    /// Why, for the audit; the caller only ever hears "invalid credentials".
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        case unknownUser
        case wrongPassword
        /// The user exists but has no password (they authenticate elsewhere, e.g. OAuth).
        case noPassword
    }

    /// The user name as given.
    public var user: String
    public var deviceId: String?
    public var reason: Reason

    public init(user: String, deviceId: String?, reason: Reason) {
        self.user = user
        self.deviceId = deviceId
        self.reason = reason
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId ?? "")
        w.write(reason.rawValue)
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        let deviceId = try r.readString("device id")
        self.deviceId = deviceId.isEmpty ? nil : deviceId
        let reason = try r.readString("reason")
        guard let known = Reason(rawValue: reason) else {
            throw StoreError(.corrupt, "LoginFailed has unknown reason \(String(reflecting: reason))")
        }
        self.reason = known
    }
}
