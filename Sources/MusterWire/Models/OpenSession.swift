import Foundation

/// A session that has not ended (`GET /api/v1/sessions`, `muster sessions list`): a device or browser logged in.
public struct OpenSession: Sendable, Hashable, Codable {
    /// The session's id: `DELETE /api/v1/sessions/{id}` ends it.
    public var sessionId: UUID
    /// Whose session it is.
    public var user: String
    /// The device named at login, if any.
    public var deviceId: String?
    /// When it ends unless it is refreshed before: its refresh token's expiry.
    public var expiresAt: Date
    /// Whether it is the session asking (over HTTP); nil elsewhere.
    public var isCurrent: Bool?

    /// Creates a session from its parts.
    public init(sessionId: UUID, user: String, deviceId: String?, expiresAt: Date, isCurrent: Bool? = nil) {
        self.sessionId = sessionId
        self.user = user
        self.deviceId = deviceId
        self.expiresAt = expiresAt
        self.isCurrent = isCurrent
    }
}

extension OpenSession {
    private enum CodingKeys: String, CodingKey { case sessionId, user, deviceId, expiresAt, isCurrent }

    /// Encodes as the server writes it: the session id in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionId.uuidString.lowercased(), forKey: .sessionId)
        try container.encode(user, forKey: .user)
        try container.encodeIfPresent(deviceId, forKey: .deviceId)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(isCurrent, forKey: .isCurrent)
    }
}
