import EventLog
import Foundation

extension Sessions {
    /// Checks the password (scrypt, OUTSIDE the writer: it takes tens of ms), then records TokenIssued.
    ///
    /// A refusal is recorded as `LoginFailed` and thrown as `AuthenticationError.invalidCredentials`,
    /// whatever the reason. Once `policy.failedLoginLimit` failures for this name lie within
    /// `policy.failedLoginWindow`, throws `.throttled` without checking the password or recording
    /// anything. A name no user could have (empty, too long, control characters) is refused
    /// unrecorded. Throws `StoreError(.invalidArgument)` for a bad namespace or device id.
    public func login(
        username: String, password: String, namespace: String = Names.defaultNamespace, deviceId: String? = nil
    ) async throws -> Tokens {
        try Names.validate(namespace, as: "namespace")
        if let deviceId { try Names.validate(deviceId, as: "device id") }
        guard (try? Names.validate(username, as: "user name")) != nil else {
            throw AuthenticationError.invalidCredentials
        }
        let policy = self.policy
        let now = log.configuration.clock()
        let (user, wait) = try log.read { reader in
            let sessions = try reader.projection(SessionsProjection.name)
            let wait = try Self.retryAfter(sessions, namespace: namespace, user: username, now: now, policy: policy)
            return (try Directory.user(username, namespace, reader.projection(DirectoryProjection.name)), wait)
        }
        if let wait { throw AuthenticationError.throttled(retryAfter: wait) }

        let failure: LoginFailed.Reason?
        if let hash = user?.password {
            failure = await Self.check(password, against: hash) ? nil : .wrongPassword
        } else {
            // As slow as a real check, so the answer's timing does not tell whether the user exists.
            if let decoy = Self.decoy { _ = await Self.check(password, against: decoy) }
            failure = user == nil ? .unknownUser : .noPassword
        }

        let sessionId = UUID()
        let access = SessionToken.make(prefix: SessionToken.accessPrefix)
        let refresh = SessionToken.make(prefix: SessionToken.refreshPrefix)
        let outcome = try await log.perform { scope -> LoginOutcome in
            // Again on the writer: concurrent attempts may have failed since the read above.
            let sessions = try scope.projection(SessionsProjection.name)
            if let wait = try Self.retryAfter(
                sessions, namespace: namespace, user: username, now: scope.now, policy: policy)
            {
                return .throttled(wait)
            }
            if let failure {
                let event = LoginFailed(user: username, deviceId: deviceId, reason: failure)
                try scope.append(
                    AppendRequest(
                        namespace: namespace, stream: Self.loginsStream(username),
                        events: [event.newEvent(actor: "anonymous")]))
                return .failed
            }
            let issued = TokenIssued(
                sessionId: sessionId, user: username, deviceId: deviceId,
                accessTokenHash: SessionToken.hash(access), refreshTokenHash: SessionToken.hash(refresh),
                accessExpiresAt: scope.now + StoreTime.micros(policy.accessTokenLifetime),
                refreshExpiresAt: scope.now + StoreTime.micros(policy.refreshTokenLifetime), reason: .login)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Self.stream(sessionId), expectedVersion: .noStream,
                    events: [issued.newEvent(actor: username)]))
            return .issued(expiresAt: issued.accessExpiresAt)
        }
        switch outcome {
        case .throttled(let wait): throw AuthenticationError.throttled(retryAfter: wait)
        case .failed: throw AuthenticationError.invalidCredentials
        case .issued(let expiresAt):
            return Tokens(
                accessToken: access, refreshToken: refresh, expiresAt: StoreTime.date(expiresAt), username: username,
                preferredUsername: username)
        }
    }

    /// What the writer decided; a refusal is thrown only after the failure is committed.
    private enum LoginOutcome: Sendable {
        case throttled(Int)
        case failed
        case issued(expiresAt: Int64)
    }

    /// Seconds until a login for `user` may be tried again, or nil when it may be now: once
    /// `failedLoginLimit` failures lie within the window, until the oldest of them leaves it.
    static func retryAfter(
        _ sessions: ProjectionState, namespace: String, user: String, now: Int64, policy: Policy
    ) throws -> Int? {
        guard policy.failedLoginLimit > 0 else { return nil }
        let limit = min(policy.failedLoginLimit, SessionsProjection.failedLoginsKept)
        let window = StoreTime.micros(policy.failedLoginWindow)
        // Sorted: another process's writer may have stamped a failure a little out of order.
        let counted = try SessionsProjection.failedLogins(sessions, namespace: namespace, user: user)
            .filter { $0 + window > now }.sorted()
        guard counted.count >= limit else { return nil }
        let remaining = counted[counted.count - limit] + window - now
        return max(1, Int((Double(remaining) / 1_000_000).rounded(.up)))
    }

    /// Failed logins of a name go to `logins/<name>`, or to `logins` when that would be too long a
    /// stream name (names near the 200-byte limit).
    static func loginsStream(_ user: String) -> String {
        let stream = "logins/\(user)"
        return (try? Names.validate(stream, as: "stream name")) != nil ? stream : "logins"
    }

    /// A hash with the default cost, checked for names without a password so they take as long.
    private static let decoy = try? PasswordHash.make("decoy password")

    /// Runs scrypt on a Dispatch thread: tens of milliseconds are too long to hold a thread of the
    /// concurrency pool.
    private static func check(_ password: String, against hash: PasswordHash) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: hash.matches(password))
            }
        }
    }
}
