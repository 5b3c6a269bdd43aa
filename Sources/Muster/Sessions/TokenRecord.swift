import EventLog
import Foundation

/// What a token hash leads to: whose session, until when, and whether it was revoked.
struct TokenRecord: Hashable {
    var namespace: String
    var user: String
    var sessionId: UUID
    var deviceId: String?
    /// Microseconds since 1970.
    var expiresAt: Int64
    var isRevoked: Bool

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.write(isRevoked)
        w.write(namespace)
        w.write(user)
        w.write(sessionId)
        w.write(deviceId ?? "")
        w.write(signed: expiresAt)
        return w.bytes
    }

    init(namespace: String, user: String, sessionId: UUID, deviceId: String?, expiresAt: Int64, isRevoked: Bool) {
        self.namespace = namespace
        self.user = user
        self.sessionId = sessionId
        self.deviceId = deviceId
        self.expiresAt = expiresAt
        self.isRevoked = isRevoked
    }

    init(decoding bytes: [UInt8]) throws {
        (isRevoked, namespace, user, sessionId, deviceId, expiresAt) = try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            let revoked = try r.readBool("revoked flag")
            let namespace = try r.readString("namespace")
            let user = try r.readString("user")
            let sessionId = try r.readUUID("session id")
            let device = try r.readString("device id")
            return (revoked, namespace, user, sessionId, device.isEmpty ? nil : device, try r.readSigned("expiry"))
        }
    }
}

/// A session's current token pair, and whether it ended (logout).
struct SessionEntry: Hashable {
    var accessTokenHash: String
    var refreshTokenHash: String
    var hasEnded: Bool

    init(accessTokenHash: String, refreshTokenHash: String, hasEnded: Bool) {
        self.accessTokenHash = accessTokenHash
        self.refreshTokenHash = refreshTokenHash
        self.hasEnded = hasEnded
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 136)
        w.write(hasEnded)
        w.write(accessTokenHash)
        w.write(refreshTokenHash)
        return w.bytes
    }

    init(decoding bytes: [UInt8]) throws {
        (hasEnded, accessTokenHash, refreshTokenHash) = try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return (
                try r.readBool("ended flag"), try r.readString("access token hash"),
                try r.readString("refresh token hash")
            )
        }
    }
}
