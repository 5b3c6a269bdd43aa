import EventLog
import Foundation

extension Sessions {
    /// Rotates: new access + refresh token for the same session; the old pair stops working.
    ///
    /// A refresh token that an earlier refresh replaced, presented again, ends the whole session
    /// (RFC 6819 §5.2.2.3: a copy may be in someone else's hands) and records `TokenRevoked` with
    /// reason `refreshReuse`. Throws `AuthenticationError.tokenUnknown`, `.tokenRevoked` or `.tokenExpired`.
    public func refresh(refreshToken: String) async throws -> Tokens {
        let hash = SessionToken.hash(refreshToken)
        // The new pair names the namespace when tokens do here, also for a refresh token issued before they did.
        let tag =
            policy.namesNamespaceInTokens
            ? try SessionToken.namespace(of: refreshToken)
                ?? log.read { try $0.sessions.refreshToken(hash: hash)?.namespace } : nil
        let access = SessionToken.make(prefix: SessionToken.accessPrefix, namespace: tag)
        let refresh = SessionToken.make(prefix: SessionToken.refreshPrefix, namespace: tag)
        let policy = self.policy
        let outcome = try await log.perform { scope -> RefreshOutcome in
            let sessions = try scope.sessions
            guard let token = try sessions.refreshToken(hash: hash) else {
                throw AuthenticationError.tokenUnknown
            }
            if token.isRevoked {
                guard let entry = try sessions.session(token.sessionId), !entry.hasEnded,
                    entry.refreshTokenHash != hash
                else { throw AuthenticationError.tokenRevoked }
                // Committed, then refused: the revocation must not roll back with the error.
                let reuse = TokenRevoked(
                    sessionId: token.sessionId, user: token.user, deviceId: token.deviceId, reason: .refreshReuse)
                try scope.append(
                    AppendRequest(
                        namespace: token.namespace, stream: Self.stream(token.sessionId),
                        events: [reuse.newEvent(actor: token.user)]))
                return .reused
            }
            if scope.now >= token.expiresAt { throw AuthenticationError.tokenExpired }
            guard try scope.directory.user(token.user, namespace: token.namespace) != nil
            else { throw AuthenticationError.tokenUnknown }
            let revoked = TokenRevoked(
                sessionId: token.sessionId, user: token.user, deviceId: token.deviceId, reason: .refreshRotation)
            let issued = TokenIssued(
                sessionId: token.sessionId, user: token.user, deviceId: token.deviceId,
                accessTokenHash: SessionToken.hash(access), refreshTokenHash: SessionToken.hash(refresh),
                accessExpiresAt: scope.now + StoreTime.micros(policy.accessTokenLifetime),
                refreshExpiresAt: scope.now + StoreTime.micros(policy.refreshTokenLifetime), reason: .refresh)
            try scope.append(
                AppendRequest(
                    namespace: token.namespace, stream: Self.stream(token.sessionId),
                    events: [revoked.newEvent(actor: token.user), issued.newEvent(actor: token.user)]))
            return .rotated(
                Tokens(
                    accessToken: access, refreshToken: refresh, expiresAt: StoreTime.date(issued.accessExpiresAt),
                    username: token.user, preferredUsername: token.user))
        }
        switch outcome {
        case .reused: throw AuthenticationError.tokenRevoked
        case .rotated(let tokens): return tokens
        }
    }

    /// What the writer decided on a refresh.
    private enum RefreshOutcome: Sendable {
        case rotated(Tokens)
        /// A replaced refresh token came back; the session was ended.
        case reused
    }

    /// Revokes the session of this access token (its access and refresh token). An expired access
    /// token still logs out; one revoked already (by a logout or a refresh) throws
    /// `AuthenticationError.tokenRevoked`, an unknown one `.tokenUnknown`.
    public func logout(accessToken: String) async throws {
        let hash = SessionToken.hash(accessToken)
        try await log.perform { scope in
            guard let token = try scope.sessions.accessToken(hash: hash) else {
                throw AuthenticationError.tokenUnknown
            }
            if token.isRevoked { throw AuthenticationError.tokenRevoked }
            let revoked = TokenRevoked(
                sessionId: token.sessionId, user: token.user, deviceId: token.deviceId, reason: .logout)
            try scope.append(
                AppendRequest(
                    namespace: token.namespace, stream: Self.stream(token.sessionId),
                    events: [revoked.newEvent(actor: token.user)]))
        }
    }
}
