import EventLog
import Foundation

/// A session got a new access and refresh token: at login, or when a refresh rotated the pair.
///
/// Only SHA-256 hashes of the tokens are stored: a backup of the log must not hand out live tokens.
public struct TokenIssued: DomainEvent, Hashable, Codable {
    public static let type = "TokenIssued"
    public static let schemaVersion: UInt16 = 1

    /// Why the tokens were issued.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user gave their password.
        case login
        /// The user presented the session's refresh token.
        case refresh
    }

    public var sessionId: UUID
    public var user: String
    /// The device the user logged in from, when the client said.
    public var deviceId: String?
    /// Lowercase hex SHA-256 of the access token.
    public var accessTokenHash: String
    /// Lowercase hex SHA-256 of the refresh token.
    public var refreshTokenHash: String
    /// When the access token stops working: microseconds since 1970, on the store's clock.
    @AuditTime public var accessExpiresAt: Int64
    /// When the refresh token stops working: microseconds since 1970, on the store's clock.
    @AuditTime public var refreshExpiresAt: Int64
    public var reason: Reason
}
