import Foundation
import MusterWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MusterClient {
    /// Sends `request` with a valid bearer token when the route needs one, and returns its 2xx answer.
    ///
    /// An access token about to expire is refreshed first; a `token_expired` answer (the clocks disagree)
    /// refreshes and retries once — safe, since the server refused the request before doing anything. A dead
    /// token (`token_revoked`, `token_unknown`) is forgotten. The outcome is recorded in ``session``.
    func perform(_ request: APIRequest) async throws(MusterClientError) -> APIResponse {
        do {
            let response = try await exchange(request)
            updateSession { session in
                session.recordSuccess(statusCode: response.statusCode)
                if request.authorized { session.authValid = true }
            }
            return response
        } catch {
            updateSession { $0.recordFailure(error) }
            throw error
        }
    }

    /// Decodes a JSON answer, or names the route whose answer broke the contract.
    func decode<T: Decodable>(_ type: T.Type, from response: APIResponse, of request: APIRequest)
        throws(MusterClientError) -> T
    {
        do {
            return try MusterJSON.decoder().decode(T.self, from: response.body)
        } catch {
            let failure = MusterClientError.invalidResponse(request.summary, error)
            updateSession { $0.recordFailure(failure) }
            throw failure
        }
    }

    /// The tokens of the login, refreshed first when the access token has expired or is about to.
    func validTokens() async throws(MusterClientError) -> AuthTokens {
        guard let tokens = state.withLock({ $0.tokens }) else { throw Self.notLoggedIn }
        guard tokens.expires(within: Self.refreshLeeway, of: now()) else { return tokens }
        return try await refreshedTokens(replacing: tokens)
    }

    /// Forgets the login: in memory and in the token store.
    func forgetTokens() {
        state.withLock { state in
            state.tokens = nil
            state.session.authValid = false
        }
        do {
            try tokenStore.clear()
        } catch {
            updateSession { $0.recordFailure(Self.storageFailure(error)) }
        }
    }

    /// Sends one request without recording it in the session; no token handling.
    func send(_ request: APIRequest, bearer: String?) async throws(MusterClientError) -> APIResponse {
        let urlRequest = try request.urlRequest(serverURL: serverURL, bearer: bearer)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await urlSession.exchange(urlRequest)
        } catch {
            throw MusterClientError.transport(error, url: urlRequest.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw MusterClientError.invalidResponse(request.summary)
        }
        return APIResponse(
            statusCode: http.statusCode, body: data, contentType: http.value(forHTTPHeaderField: "Content-Type"),
            retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    static let notLoggedIn = MusterClientError(
        code: .loginRequired, message: "not logged in: call authWithInternal or authWithOAuth first")

    private func exchange(_ request: APIRequest) async throws(MusterClientError) -> APIResponse {
        guard request.authorized else {
            let response = try await send(request, bearer: nil)
            guard response.succeeded else { throw response.error }
            return response
        }
        let tokens = try await validTokens()
        var response = try await send(request, bearer: tokens.accessToken)
        if response.statusCode == 401, response.error.code == .tokenExpired {
            let renewed = try await refreshedTokens(replacing: tokens)
            response = try await send(request, bearer: renewed.accessToken)
        }
        guard response.succeeded else {
            let failure = response.error
            if [.tokenRevoked, .tokenUnknown, .unauthenticated].contains(failure.code) { forgetTokens() }
            throw failure
        }
        return response
    }

    /// Tokens newer than `stale`: the ones another request already got, the refresh in flight, or a new one.
    func refreshedTokens(replacing stale: AuthTokens) async throws(MusterClientError) -> AuthTokens {
        enum Pending {
            case ready(AuthTokens)
            case waiting(Task<AuthTokens, any Error>)
            case loggedOut
        }
        let pending: Pending = state.withLock { state in
            guard let current = state.tokens else { return .loggedOut }
            if current.accessToken != stale.accessToken { return .ready(current) }
            if let refresh = state.refresh { return .waiting(refresh) }
            // Not tied to the caller: if it is cancelled the refresh still lands, for the old pair is revoked.
            let refresh = Task { try await self.refresh(current) }
            state.refresh = refresh
            return .waiting(refresh)
        }
        switch pending {
        case .ready(let tokens):
            return tokens
        case .loggedOut:
            throw Self.notLoggedIn
        case .waiting(let refresh):
            do {
                return try await refresh.value
            } catch {
                throw MusterClientError.transport(error, url: nil)
            }
        }
    }

    /// `POST /auth/refresh`, or the issuer's token endpoint for an OAuth login: a new pair for the stale one. A
    /// refusal means the user must log in again.
    private func refresh(_ stale: AuthTokens) async throws(MusterClientError) -> AuthTokens {
        do throws(MusterClientError) {
            guard let refreshToken = stale.refreshToken else {
                throw MusterClientError(
                    code: .loginRequired,
                    message: "the access token has expired and cannot be refreshed: log in again")
            }
            var renewed: AuthTokens
            if let endpoint = stale.tokenEndpoint {
                renewed = try await renewedAtIssuer(stale, refreshToken: refreshToken, endpoint: endpoint)
            } else {
                let request = try APIRequest("POST", ["auth", "refresh"], json: ["refreshToken": refreshToken])
                let response = try await send(request, bearer: nil)
                guard response.succeeded else { throw response.error }
                renewed = try decode(AuthTokens.self, from: response, of: request)
            }
            renewed.serverType = renewed.serverType ?? stale.serverType
            renewed.username = renewed.username ?? stale.username
            renewed.preferredUsername = renewed.preferredUsername ?? stale.preferredUsername
            renewed.server = stale.server ?? serverURL
            renewed.namespace = stale.namespace
            state.withLock { state in
                state.tokens = renewed
                state.refresh = nil
            }
            do {
                try tokenStore.save(renewed)
            } catch {
                // The new pair works from memory; only a restart would need the login again.
                updateSession { $0.recordFailure(Self.storageFailure(error)) }
            }
            return renewed
        } catch {
            state.withLock { $0.refresh = nil }
            guard !error.isTransient, error.code != .cancelled else { throw error }
            // Any definite refusal of the refresh token (token_expired, token_revoked, token_unknown, …)
            // leaves nothing to refresh with: the user must log in again.
            forgetTokens()
            if error.requiresLogin { throw error }
            throw MusterClientError(
                code: .loginRequired, statusCode: error.statusCode,
                message: "the refresh token was refused (\(error.message)): log in again", fields: error.fields)
        }
    }
}
