import EventLog
import Foundation
import MusterWire

extension Sessions {
    /// The sessions of `user` (nil: of every user of the namespace, by user) that have not ended, each with its
    /// device and when it ends unless refreshed.
    public func open(user: String?, namespace: String = Names.defaultNamespace) throws -> [OpenSession] {
        try log.read { try $0.sessions.openSessions(user: user, namespace: namespace) }.map {
            OpenSession(
                sessionId: $0.sessionId, user: $0.user, deviceId: $0.deviceId, expiresAt: StoreTime.date($0.expiresAt))
        }
    }

    /// Ends a session of the namespace from elsewhere (`TokenRevoked`, reason `ended`): its device or browser is
    /// logged out at its next request. With `of`, only a session of that user (one's own, from another session).
    /// Fails with `.notFound` for a session that is not one of the namespace's (or of `of`'s) that has not ended.
    public func end(
        _ sessionId: UUID, of user: String? = nil, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws {
        try await log.perform { scope in
            let sessions = try scope.sessions
            guard let entry = try sessions.session(sessionId), !entry.hasEnded,
                let token = try sessions.refreshToken(hash: entry.refreshTokenHash), !token.isRevoked,
                token.namespace == namespace, user == nil || token.user == user
            else {
                let whose = user.map { " of \($0)" } ?? ""
                throw MusterError(
                    .notFound,
                    "no open session \(sessionId.uuidString.lowercased())\(whose) in namespace \(namespace) "
                        + "(muster sessions list)")
            }
            let revoked = TokenRevoked(sessionId: sessionId, user: token.user, deviceId: token.deviceId, reason: .ended)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Self.stream(sessionId), events: [revoked.newEvent(actor: actor)]))
        }
    }
}
