import EventLog
import Foundation

/// Sessions by token hash, kept inline so a refresh or logout decides on them in the transaction
/// that records it. (Version 1 also counted failed logins per name; they are throttled in memory now.
/// Version 2 kept every token for good; version 3 sweeps them once their refresh token expired.)
///
/// Tables: `accessTokens` and `refreshTokens` hex SHA-256 → `TokenRecord` (a revoked token stays,
/// flagged, so it answers "revoked" rather than "unknown"); `sessions` session id (16 bytes) →
/// `SessionEntry` (the current pair, whether the session ended by a logout or a refresh token's reuse);
/// `expiries` the refresh token's expiry (8 bytes big-endian) + its hash → the access token's hash: each
/// issued pair in the order it stops being of use, so every event sweeps a few whose time has passed
/// (see `sweep`); `userSessions` `namespace 0 user 0` + session id (16 bytes) → `[1]`: each user's sessions that have
/// not ended, so ending them all (a password changed, the user removed) reads theirs, not every session (version 4).
public struct SessionsProjection: Projection {
    public static let name = "sessions"
    public var name: String { Self.name }
    public var version: UInt32 { 4 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["accessTokens", "refreshTokens", "sessions", "expiries", "userSessions"] }
    public var eventTypes: Set<String>? { [TokenIssued.type, TokenRevoked.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let issued = try TokenIssued.decode(event) {
            try issue(issued, namespace: event.namespace, state)
        } else if let revoked = try TokenRevoked.decode(event) {
            try revoke(revoked, namespace: event.namespace, state)
        }
        try sweep(at: event.recordedAt, state)
    }

    private func issue(_ issued: TokenIssued, namespace: String, _ state: ProjectionState) throws {
        var record = TokenRecord(
            namespace: namespace, user: issued.user, sessionId: issued.sessionId, deviceId: issued.deviceId,
            expiresAt: issued.accessExpiresAt, isRevoked: false)
        try state.put("accessTokens", Array(issued.accessTokenHash.utf8), record.encoded())
        record.expiresAt = issued.refreshExpiresAt
        try state.put("refreshTokens", Array(issued.refreshTokenHash.utf8), record.encoded())
        let entry = SessionEntry(
            accessTokenHash: issued.accessTokenHash, refreshTokenHash: issued.refreshTokenHash, hasEnded: false)
        try state.put("sessions", Self.key(issued.sessionId), entry.encoded())
        try state.put("userSessions", Self.userKey(namespace, issued.user, issued.sessionId), [1])
        try state.put(
            "expiries", Self.expiryKey(issued.refreshExpiresAt, issued.refreshTokenHash),
            Array(issued.accessTokenHash.utf8))
    }

    private func revoke(_ revoked: TokenRevoked, namespace: String, _ state: ProjectionState) throws {
        let key = Self.key(revoked.sessionId)
        guard var entry = try state.get("sessions", key).map(SessionEntry.init(decoding:)) else { return }
        for (table, hash) in [("accessTokens", entry.accessTokenHash), ("refreshTokens", entry.refreshTokenHash)] {
            let tokenKey = Array(hash.utf8)
            guard var record = try state.get(table, tokenKey).map(TokenRecord.init(decoding:)) else { continue }
            record.isRevoked = true
            try state.put(table, tokenKey, record.encoded())
        }
        if revoked.reason != .refreshRotation {
            entry.hasEnded = true
            try state.put("sessions", key, entry.encoded())
            try state.delete("userSessions", Self.userKey(namespace, revoked.user, revoked.sessionId))
        }
    }

    static func key(_ sessionId: UUID) -> [UInt8] { withUnsafeBytes(of: sessionId.uuid) { Array($0) } }

    /// The `userSessions` key of a session of `user`.
    static func userKey(_ namespace: String, _ user: String, _ sessionId: UUID) -> [UInt8] {
        Key.joined(namespace, user) + key(sessionId)
    }
}

extension LogSnapshot {
    /// The sessions in this snapshot.
    var sessions: ProjectionView<SessionsProjection> { get throws { try view(SessionsProjection()) } }
}

extension ProjectionView<SessionsProjection> {
    /// The record of an access token's hash, or nil.
    func accessToken(hash: String) throws -> TokenRecord? { try token("accessTokens", hash) }

    /// The record of a refresh token's hash, or nil.
    func refreshToken(hash: String) throws -> TokenRecord? { try token("refreshTokens", hash) }

    private func token(_ table: String, _ hash: String) throws -> TokenRecord? {
        try state.get(table, Array(hash.utf8)).map(TokenRecord.init(decoding:))
    }

    /// The sessions of `user` (nil: of every user of the namespace, by user) that have not ended, each as its
    /// refresh token's record (device, expiry): what a password change ends.
    func openSessions(user: String?, namespace: String) throws -> [TokenRecord] {
        var ids: [UUID] = []
        let prefix = user.map { Key.joined(namespace, $0) } ?? Key.joined(namespace)
        try state.scan("userSessions", prefix: prefix) { key, _ in
            ids.append(key.suffix(16).withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
            return true
        }
        return try ids.compactMap { id -> TokenRecord? in
            guard let entry = try session(id), !entry.hasEnded,
                let record = try refreshToken(hash: entry.refreshTokenHash), !record.isRevoked
            else { return nil }
            return record
        }
    }

    /// A session's current pair and whether it ended, or nil.
    func session(_ sessionId: UUID) throws -> SessionEntry? {
        try state.get("sessions", SessionsProjection.key(sessionId)).map(SessionEntry.init(decoding:))
    }
}
