import EventLog
import Foundation

extension Sessions {
    /// Checks the password (scrypt, OUTSIDE the writer: it takes tens of ms), then records TokenIssued.
    ///
    /// Every refusal is thrown as `AuthenticationError.invalidCredentials`, whatever the reason, and
    /// takes as long; it is recorded as `LoginFailed` only when the user exists, so guessing names
    /// does not grow the log. The user is found by the case-folded form of `username`, and the
    /// tokens name the user as the directory writes them. Throws `.throttled` without checking
    /// anything once this name or this address failed too often (`Policy`, `LoginThrottle`). Throws
    /// `StoreError(.invalidArgument)` for a bad namespace, `MusterError(.invalidArgument)` naming `deviceId` for a bad
    /// device id.
    /// - Parameter clientAddress: where the attempt comes from (an IP address); nil counts as one
    ///   unknown address.
    public func login(
        username: String, password: String, namespace: String = Names.defaultNamespace, deviceId: String? = nil,
        clientAddress: String? = nil
    ) async throws -> Tokens {
        try Names.validate(namespace, as: "namespace")
        if let deviceId { try Names.validate(deviceId, as: "device id", field: "deviceId") }
        let address = clientAddress ?? "unknown"
        let folded = UserName.folded(username)
        if let wait = throttle.begin(
            namespace: namespace, user: folded, address: address, now: log.configuration.clock())
        {
            throw AuthenticationError.throttled(retryAfter: wait)
        }
        // A name no user could have (empty, too long, control characters) is refused as a failure.
        let (user, someHash) = try log.read { reader -> (UserCreated?, PasswordHash?) in
            let directory = try reader.directory
            guard (try? Names.validate(username, as: "user name")) != nil else {
                return (nil, try directory.anyPasswordHash(namespace: namespace))
            }
            let user = try directory.user(matching: username, namespace: namespace)
            return (user, user?.password == nil ? try directory.anyPasswordHash(namespace: namespace) : nil)
        }
        let failure: LoginFailed.Reason?
        if let hash = user?.password {
            failure = await hash.matches(password) ? nil : .wrongPassword
        } else {
            // As slow as a real check, so the answer's timing does not tell whether the user exists:
            // a hash of this namespace has its cost.
            _ = await (someHash ?? PasswordHash.decoy).matches(password)
            failure = .noPassword
        }
        guard let user else { throw AuthenticationError.invalidCredentials }

        let sessionId = UUID()
        let tag = policy.namesNamespaceInTokens ? namespace : nil
        let access = SessionToken.make(prefix: SessionToken.accessPrefix, namespace: tag)
        let refresh = SessionToken.make(prefix: SessionToken.refreshPrefix, namespace: tag)
        let policy = self.policy
        let expiresAt = try await log.perform { scope -> Int64? in
            if let failure {
                let event = LoginFailed(
                    user: user.name, deviceId: deviceId, reason: failure, clientAddress: clientAddress)
                try scope.append(
                    AppendRequest(
                        namespace: namespace, stream: Self.loginsStream(user.name),
                        events: [event.newEvent(actor: "anonymous")]))
                return nil
            }
            let issued = TokenIssued(
                sessionId: sessionId, user: user.name, deviceId: deviceId,
                accessTokenHash: SessionToken.hash(access), refreshTokenHash: SessionToken.hash(refresh),
                accessExpiresAt: scope.now + StoreTime.micros(policy.accessTokenLifetime),
                refreshExpiresAt: scope.now + StoreTime.micros(policy.refreshTokenLifetime), reason: .login)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Self.stream(sessionId), expectedVersion: .noStream,
                    events: [issued.newEvent(actor: user.name)]))
            return issued.accessExpiresAt
        }
        // A refusal is thrown only after the failure is committed.
        guard let expiresAt else { throw AuthenticationError.invalidCredentials }
        throttle.succeeded(namespace: namespace, user: folded, address: address)
        return Tokens(
            accessToken: access, refreshToken: refresh, expiresAt: StoreTime.date(expiresAt), username: user.name,
            preferredUsername: user.name)
    }

    /// Whether `password` is `user`'s current one, checked as a login checks it — throttled per name and address
    /// alike, so guesses made with a stolen token wait as guesses at the login do (`.throttled`) — before a
    /// change of one's own password.
    /// - Parameter clientAddress: where the attempt comes from (an IP address); nil counts as one unknown address.
    public func confirmPassword(_ password: String, user: String, namespace: String, clientAddress: String?)
        async throws -> Bool
    {
        let address = clientAddress ?? "unknown"
        let folded = UserName.folded(user)
        if let wait = throttle.begin(
            namespace: namespace, user: folded, address: address, now: log.configuration.clock())
        {
            throw AuthenticationError.throttled(retryAfter: wait)
        }
        guard try await Directory(log: log).passwordMatches(password, user: user, namespace: namespace) else {
            return false
        }
        throttle.succeeded(namespace: namespace, user: folded, address: address)
        return true
    }

    /// Failed logins of a user go to `logins/<name>`, or to `logins` when that would be too long a
    /// stream name (names near the 200-byte limit).
    static func loginsStream(_ user: String) -> String {
        let stream = "logins/\(user)"
        return (try? Names.validate(stream, as: "stream name")) != nil ? stream : "logins"
    }
}
