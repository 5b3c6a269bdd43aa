import EventLog
import Foundation

/// A session got a new access and refresh token: at login, or when a refresh rotated the pair.
///
/// Only SHA-256 hashes of the tokens are stored: a backup of the log must not hand out live tokens.
public struct TokenIssued: DomainEvent, Hashable {
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
    public var accessExpiresAt: Int64
    /// When the refresh token stops working: microseconds since 1970, on the store's clock.
    public var refreshExpiresAt: Int64
    public var reason: Reason

    public init(
        sessionId: UUID, user: String, deviceId: String?, accessTokenHash: String, refreshTokenHash: String,
        accessExpiresAt: Int64, refreshExpiresAt: Int64, reason: Reason
    ) {
        self.sessionId = sessionId
        self.user = user
        self.deviceId = deviceId
        self.accessTokenHash = accessTokenHash
        self.refreshTokenHash = refreshTokenHash
        self.accessExpiresAt = accessExpiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.reason = reason
    }

    public func encode(into w: inout ByteWriter) {
        w.write(sessionId)
        w.write(user)
        w.write(deviceId ?? "")
        w.write(accessTokenHash)
        w.write(refreshTokenHash)
        w.write(signed: accessExpiresAt)
        w.write(signed: refreshExpiresAt)
        w.write(reason.rawValue)
    }

    public init(from r: inout ByteReader) throws {
        sessionId = try r.readUUID("session id")
        user = try r.readString("user")
        let deviceId = try r.readString("device id")
        self.deviceId = deviceId.isEmpty ? nil : deviceId
        accessTokenHash = try r.readString("access token hash")
        refreshTokenHash = try r.readString("refresh token hash")
        accessExpiresAt = try r.readSigned("access expiry")
        refreshExpiresAt = try r.readSigned("refresh expiry")
        let reason = try r.readString("reason")
        guard let known = Reason(rawValue: reason) else {
            throw StoreError(.corrupt, "TokenIssued has unknown reason \(String(reflecting: reason))")
        }
        self.reason = known
    }

    /// The audit shape shows the expiries as ISO 8601 times.
    private enum CodingKeys: String, CodingKey {
        case sessionId, user, deviceId, accessTokenHash, refreshTokenHash, accessExpiresAt, refreshExpiresAt, reason
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sessionId, forKey: .sessionId)
        try c.encode(user, forKey: .user)
        try c.encodeIfPresent(deviceId, forKey: .deviceId)
        try c.encode(accessTokenHash, forKey: .accessTokenHash)
        try c.encode(refreshTokenHash, forKey: .refreshTokenHash)
        try c.encode(StoreTime.iso8601(accessExpiresAt), forKey: .accessExpiresAt)
        try c.encode(StoreTime.iso8601(refreshExpiresAt), forKey: .refreshExpiresAt)
        try c.encode(reason, forKey: .reason)
    }
}
