import EventLog
import Foundation

/// A session's current access and refresh token stopped working: the user logged out or a replaced
/// refresh token was replayed (the session ends), or a refresh replaced them (a `TokenIssued` with
/// reason `refresh` follows in the same append).
public struct TokenRevoked: DomainEvent, Hashable, Codable {
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
        /// The user's password was changed (`PasswordChanged` in the same append): every session of theirs ends.
        case passwordChanged
        /// The user was removed (`UserRemoved` in the same append): every session of theirs ends.
        case userRemoved
        /// Ended from elsewhere: by an administrator, or by its user from another session (a lost phone).
        case ended
    }

    public var sessionId: UUID
    /// The session's user and device, so the event reads on its own (audit, `muster events`).
    public var user: String
    public var deviceId: String?
    public var reason: Reason
}
