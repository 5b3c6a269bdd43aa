import EventLog
import Foundation

/// A session's current access and refresh token stopped working: the user logged out or a replaced
/// refresh token was replayed (the session ends), or a refresh replaced them (a `TokenIssued` with
/// reason `refresh` follows in the same append).
public struct TokenRevoked: DomainEvent, Hashable {
    public static let type = "TokenRevoked"
    public static let schemaVersion: UInt16 = 1

    /// Why the tokens were revoked.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user logged out: the session ends.
        case logout
        /// A refresh rotated the pair: the session goes on with new tokens.
        case refreshRotation
        /// A refresh token that a refresh had already replaced was presented again: someone else may
        /// hold a copy, so the whole session ends (RFC 6819 §5.2.2.3).
        case refreshReuse
    }

    public var sessionId: UUID
    /// The session's user and device, so the event reads on its own (audit, `muster events`).
    public var user: String
    public var deviceId: String?
    public var reason: Reason

    public init(sessionId: UUID, user: String, deviceId: String?, reason: Reason) {
        self.sessionId = sessionId
        self.user = user
        self.deviceId = deviceId
        self.reason = reason
    }

    public func encode(into w: inout ByteWriter) {
        w.write(sessionId)
        w.write(user)
        w.write(deviceId ?? "")
        w.write(reason.rawValue)
    }

    public init(from r: inout ByteReader) throws {
        sessionId = try r.readUUID("session id")
        user = try r.readString("user")
        let deviceId = try r.readString("device id")
        self.deviceId = deviceId.isEmpty ? nil : deviceId
        let reason = try r.readString("reason")
        guard let known = Reason(rawValue: reason) else {
            throw StoreError(.corrupt, "TokenRevoked has unknown reason \(String(reflecting: reason))")
        }
        self.reason = known
    }
}
