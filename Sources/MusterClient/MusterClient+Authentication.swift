import Foundation
import MusterWire

extension MusterClient {
    /// Asks the server how it authenticates: `serverType` is `Internal` (use ``authWithInternal(username:password:deviceId:)``)
    /// or `OAuth` (use ``authWithOAuth(urlScheme:clientId:browser:)``). `GET /api/v1/server`; no login needed.
    public func serverType() async -> MusterSession {
        await sessionOperation { () async throws(MusterClientError) in
            let request = APIRequest("GET", ["server"], authorized: false)
            let info = try decode(ServerInfo.self, from: try await perform(request), of: request)
            updateSession { $0.serverType = info.serverType }
        }
    }

    /// Asks the server whether the saved login is still valid (`GET /api/v1/auth/verify`); an expired access
    /// token is refreshed first, as before every request. When `authValid` is false, log in again.
    public func verifyAuthToken() async -> MusterSession {
        await sessionOperation { () async throws(MusterClientError) in
            let request = APIRequest("GET", ["auth", "verify"])
            let verified = try decode(Verification.self, from: try await perform(request), of: request)
            updateSession { session in
                session.authValid = verified.authValid
                session.username = verified.username ?? session.username
                session.preferredUsername = verified.preferredUsername ?? session.preferredUsername
                session.serverType = verified.serverType ?? session.serverType
            }
        }
    }

    /// Logs in with a username and password on an `Internal` server (`POST /api/v1/auth/token`) and saves the
    /// tokens. A wrong username or password gives `authValid == false` and the server's `errorStr`.
    ///
    /// - Parameters:
    ///   - username: the username the user entered.
    ///   - password: the password the user entered.
    ///   - deviceId: the device logging in, when it is known; the server may tie the tokens to it.
    public func authWithInternal(username: String, password: String, deviceId: String? = nil) async -> MusterSession {
        await sessionOperation { () async throws(MusterClientError) in
            let body = LoginBody(username: username, password: password, namespace: namespace, deviceId: deviceId)
            let request = try APIRequest("POST", ["auth", "token"], json: body, authorized: false)
            var tokens = try decode(AuthTokens.self, from: try await perform(request), of: request)
            tokens.serverType = .internal
            tokens.username = tokens.username ?? username
            tokens.preferredUsername = tokens.preferredUsername ?? tokens.username
            adopt(tokens)
        }
    }

    /// Logs in with a JWT the app got from the server's OAuth provider itself: sends it as the bearer token, keeps
    /// it when the server verifies it (``verifyAuthToken()``), and forgets it otherwise. The JWT's `exp` claim tells
    /// when it expires; with no refresh token, an expired JWT means getting a new one from the provider
    /// (``authWithOAuth(urlScheme:clientId:browser:)`` signs in and refreshes by itself).
    ///
    /// - Parameter token: the access token (a JWT) the provider issued to the app.
    public func authWithOAuth(token: String) async -> MusterSession {
        await adoptOAuth(AuthTokens(oauthJWT: token))
    }

    /// Holds the issuer's `tokens` as the login when the server verifies them, and forgets them otherwise.
    func adoptOAuth(_ tokens: AuthTokens) async -> MusterSession {
        state.withLock { state in
            state.tokens = tokens
            state.session.serverType = .oauth
        }
        let verified = await verifyAuthToken()
        guard verified.authValid else {
            forgetTokens()
            return updateSession { $0.authValid = false }
        }
        var confirmed = tokens
        confirmed.username = verified.username ?? tokens.username
        confirmed.preferredUsername = verified.preferredUsername ?? tokens.preferredUsername
        return await sessionOperation { () async throws(MusterClientError) in adopt(confirmed) }
    }

    /// Makes sure the client holds a usable access token before a REST operation: refreshes it when it has
    /// expired or is about to (`POST /api/v1/auth/refresh`). No request is made while it is fresh.
    ///
    /// When `authValid` is false the app must log in again, the way `serverType` says; a refresh token the
    /// server refused (`token_expired`, `token_revoked`, `token_unknown`) is forgotten. Every data operation
    /// does this itself, so calling it first is only needed to learn whether a login is due.
    public func ensureValidToken() async -> MusterSession {
        if session.serverType == nil, let info = await quietServerInfo() {
            updateSession { $0.serverType = info.serverType }
        }
        do {
            let before = tokens?.accessToken
            let valid = try await validTokens()
            return updateSession { session in
                session.recordSuccess(statusCode: valid.accessToken == before ? nil : 200)
                session.authValid = true
                session.username = valid.username ?? session.username
                session.preferredUsername = valid.preferredUsername ?? session.preferredUsername
            }
        } catch {
            return updateSession { session in
                session.recordFailure(error)
                session.authValid = false
            }
        }
    }

    /// Logs out (`POST /api/v1/auth/logout`): the server revokes the access and refresh tokens, and the client
    /// forgets them whatever the server answered. `errorStr` says when the server could not be told.
    public func logout() async -> MusterSession {
        guard tokens != nil else {
            return updateSession { session in
                session.recordSuccess(statusCode: nil)
                session.authValid = false
            }
        }
        var failure: MusterClientError?
        do {
            _ = try await perform(APIRequest("POST", ["auth", "logout"]))
        } catch {
            failure = error
        }
        forgetTokens()
        return updateSession { session in
            session.authValid = false
            session.username = nil
            session.preferredUsername = nil
            if let failure, !failure.requiresLogin {
                var told = failure
                told.message = "logged out on this device, but the server was not told: \(failure.message)"
                session.recordFailure(told)
            } else {
                // A token the server already considers dead is as logged out as it gets.
                session.recordSuccess(statusCode: failure?.statusCode ?? session.statusCode)
            }
        }
    }

    /// Creates a user with a password (`POST /api/v1/users`): self-registration when the server allows it, or
    /// an admin creating an account (the admin's token is sent when the client is logged in).
    ///
    /// Does not log in as the new user. Throws `forbidden` when registration is closed, `conflict` when the
    /// name is taken, and field errors for values the server refuses.
    ///
    /// - Parameters:
    ///   - timeZone: the user's IANA time zone, e.g. `Europe/Paris`; nil for the server's default (UTC).
    ///   - isAdmin: make the user an administrator of the namespace (administrators only).
    public func createInternalUser(
        username: String, password: String, email: String? = nil, firstName: String? = nil,
        lastName: String? = nil, phone: String? = nil, timeZone: String? = nil, isAdmin: Bool = false
    ) async throws(MusterClientError) -> User {
        let body = NewUserBody(
            username: username, password: password, email: email, firstName: firstName, lastName: lastName,
            phone: phone, timeZone: timeZone, isAdmin: isAdmin ? true : nil)
        let request = try APIRequest("POST", ["users"], json: body, authorized: tokens != nil)
        return try decode(User.self, from: try await perform(request), of: request)
    }

    /// Sets a new password (`PUT /api/v1/users/{name}/password`): the logged-in user's own, with `currentPassword`
    /// (their other sessions end; this one goes on), or, for an administrator, another user's of the namespace
    /// (every session of theirs ends). Returns the user.
    ///
    /// - Parameters:
    ///   - user: whose password; nil for the logged-in user's.
    ///   - currentPassword: the logged-in user's current password, to change their own.
    public func changePassword(of user: String? = nil, to password: String, currentPassword: String? = nil)
        async throws(MusterClientError) -> User
    {
        guard let name = user ?? tokens?.username else { throw Self.notLoggedIn }
        let body = PasswordChangeBody(password: password, currentPassword: currentPassword)
        let request = try APIRequest("PUT", ["users", name, "password"], json: body)
        return try decode(User.self, from: try await perform(request), of: request)
    }

    /// Runs a session operation: its failure becomes the session's `errorStr` and `statusCode`.
    func sessionOperation(_ body: () async throws(MusterClientError) -> Void) async -> MusterSession {
        do {
            try await body()
        } catch {
            updateSession { $0.recordFailure(error) }
        }
        return session
    }

    /// Holds `tokens` as the login and saves them; a store that cannot save is reported in `errorStr`.
    private func adopt(_ tokens: AuthTokens) {
        var tokens = tokens
        tokens.server = serverURL
        tokens.namespace = tokens.namespace ?? namespace
        state.withLock { state in
            state.tokens = tokens
            state.session.authValid = true
            state.session.serverType = tokens.serverType ?? state.session.serverType
            state.session.username = tokens.username
            state.session.preferredUsername = tokens.preferredUsername
        }
        do {
            try tokenStore.save(tokens)
        } catch {
            updateSession { $0.recordFailure(Self.storageFailure(error)) }
        }
    }

    /// The server's type, without recording the request in the session; nil when it cannot be had.
    private func quietServerInfo() async -> ServerInfo? {
        guard let response = try? await send(APIRequest("GET", ["server"], authorized: false), bearer: nil),
            response.succeeded
        else { return nil }
        return try? MusterJSON.decoder().decode(ServerInfo.self, from: response.body)
    }
}
