import EventLog

/// A login as an existing user was refused. Names no user has are not recorded (the throttle in
/// memory slows guessing them), so guessing cannot grow the log without bound.
public struct LoginFailed: DomainEvent, Hashable {
    public static let type = "LoginFailed"
    public static let schemaVersion: UInt16 = 1

    /// Why, for the audit; the caller only ever hears "invalid credentials".
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Recorded by 0.1.0 only: failures for names no user has are no longer recorded.
        case unknownUser
        case wrongPassword
        /// The user exists but has no password (they authenticate elsewhere, e.g. OAuth).
        case noPassword
    }

    /// The user's name as the directory writes it.
    public var user: String
    public var deviceId: String?
    public var reason: Reason
    /// The client's IP address, when the server knew it: for the audit, not a secret.
    public var clientAddress: String?
}

/// Schema 1's layout, written by hand: a field written only when present does not fit `BinaryCoding`.
extension LoginFailed {
    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId ?? "")
        w.write(reason.rawValue)
        // Written only when known, so events without it keep the bytes schema 1 always had.
        if let clientAddress { w.write(clientAddress) }
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
        clientAddress = r.remaining > 0 ? try r.readString("client address") : nil
    }
}
