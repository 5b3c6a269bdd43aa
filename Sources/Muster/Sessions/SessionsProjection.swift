import EventLog
import Foundation

/// Sessions by token hash and recent failed logins, kept inline so a login, refresh or logout
/// decides on them in the transaction that records it.
///
/// Tables: `accessTokens` and `refreshTokens` hex SHA-256 → `TokenRecord` (a revoked token stays,
/// flagged, so it answers "revoked" rather than "unknown"); `sessions` session id (16 bytes) →
/// `SessionEntry` (the current pair, whether the session ended); `failedLogins` `namespace 0 user 0`
/// → the times of the last `failedLoginsKept` failures (Int64 little-endian each, oldest first),
/// cleared by a login.
public struct SessionsProjection: Projection {
    public static let name = "sessions"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["accessTokens", "refreshTokens", "sessions", "failedLogins"] }

    /// Failures remembered per user; a `failedLoginLimit` above it counts as this many.
    public static let failedLoginsKept = 100

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let issued = try TokenIssued.decode(event) {
            try issue(issued, namespace: event.namespace, state)
        } else if let revoked = try TokenRevoked.decode(event) {
            try revoke(revoked, state)
        } else if let failed = try LoginFailed.decode(event) {
            let key = DirectoryProjection.key(event.namespace, failed.user)
            var times = try Self.failedLogins(state, key: key)
            times.append(event.recordedAt)
            var w = ByteWriter(capacity: 8 * Self.failedLoginsKept)
            for time in times.suffix(Self.failedLoginsKept) { w.write(fixed: time) }
            try state.put("failedLogins", key, w.bytes)
        }
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
        if issued.reason == .login {
            try state.delete("failedLogins", DirectoryProjection.key(namespace, issued.user))
        }
    }

    private func revoke(_ revoked: TokenRevoked, _ state: ProjectionState) throws {
        let key = Self.key(revoked.sessionId)
        guard var entry = try state.get("sessions", key).map(SessionEntry.init(decoding:)) else { return }
        for (table, hash) in [("accessTokens", entry.accessTokenHash), ("refreshTokens", entry.refreshTokenHash)] {
            let tokenKey = Array(hash.utf8)
            guard var record = try state.get(table, tokenKey).map(TokenRecord.init(decoding:)) else { continue }
            record.isRevoked = true
            try state.put(table, tokenKey, record.encoded())
        }
        if revoked.reason == .logout || revoked.reason == .refreshReuse {
            entry.hasEnded = true
            try state.put("sessions", key, entry.encoded())
        }
    }

    // MARK: Reading

    static func key(_ sessionId: UUID) -> [UInt8] { withUnsafeBytes(of: sessionId.uuid) { Array($0) } }

    /// The record of a token hash in `accessTokens` or `refreshTokens`, or nil.
    static func token(_ state: ProjectionState, _ table: String, hash: String) throws -> TokenRecord? {
        try state.get(table, Array(hash.utf8)).map(TokenRecord.init(decoding:))
    }

    /// A session's current pair and whether it ended, or nil.
    static func session(_ state: ProjectionState, _ sessionId: UUID) throws -> SessionEntry? {
        try state.get("sessions", key(sessionId)).map(SessionEntry.init(decoding:))
    }

    /// Times of the user's last failed logins, oldest first.
    static func failedLogins(_ state: ProjectionState, namespace: String, user: String) throws -> [Int64] {
        try failedLogins(state, key: DirectoryProjection.key(namespace, user))
    }

    private static func failedLogins(_ state: ProjectionState, key: [UInt8]) throws -> [Int64] {
        try state.withValue("failedLogins", key) { value in
            guard let value else { return [] }
            return stride(from: 0, to: value.count - value.count % 8, by: 8).map {
                Int64(littleEndian: value.loadUnaligned(fromByteOffset: $0, as: Int64.self))
            }
        }
    }
}
