import Foundation
import MusterWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MusterClient {
    /// Signs in at the server's OpenID Connect issuer: the authorization code flow with PKCE (S256), as a public
    /// client. The issuer's ID token becomes the bearer token, as in the web app, once the server verifies it; its
    /// refresh token, when the issuer gives one, renews it as it expires (``ensureValidToken()``).
    ///
    /// The issuer's endpoints come from the server (``oauthIssuer()``); `browser` shows the person the sign-in
    /// page. A refusal, a person who gave up, or a user the server does not know give `authValid == false` and
    /// say why in `errorStr`.
    ///
    /// - Parameters:
    ///   - urlScheme: the app's URL scheme the issuer redirects to, e.g. `com.example.muster`.
    ///   - clientId: the client id registered at the issuer; the server must take ID tokens for it (its
    ///     `--oidc-audience`).
    ///   - browser: shows the sign-in page: ``WebAuthenticationBrowser`` in an app, ``LoopbackBrowser`` on a
    ///     desktop or server.
    public func authWithOAuth(urlScheme: String, clientId: String, browser: some OAuthBrowser) async -> MusterSession {
        updateSession { $0.serverType = .oauth }
        let tokens: AuthTokens
        do {
            let issuer = try await oauthIssuer()
            tokens = try await signIn(at: issuer, clientId: clientId, urlScheme: urlScheme, browser: browser)
        } catch {
            return updateSession { session in
                session.recordFailure(error)
                session.authValid = false
            }
        }
        return await adoptOAuth(tokens)
    }

    /// The server's OpenID Connect issuer, from `/app/config.json` (`singleSignOn`): what the server read from
    /// the issuer's discovery document. Throws `sign_in_unavailable` when the server signs nobody in at an issuer.
    public func oauthIssuer() async throws(MusterClientError) -> OAuthIssuer {
        struct Configuration: Decodable {
            var singleSignOn: OAuthIssuer?
        }
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/app/config.json") else {
            throw MusterClientError(code: .invalidArgument, message: "serverURL \(serverURL) cannot take a path")
        }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (status, body) = try await issuerExchange(request)
        guard (200..<300).contains(status) else {
            throw MusterClientError(
                code: .signInUnavailable, statusCode: status,
                message: "GET \(url.path) answered HTTP \(status): the server does not say how to sign in")
        }
        guard let configuration = try? MusterJSON.decoder().decode(Configuration.self, from: body) else {
            throw MusterClientError(
                code: .invalidResponse, statusCode: status, message: "GET \(url.path) is not the app's configuration")
        }
        guard let issuer = configuration.singleSignOn else {
            throw MusterClientError(
                code: .signInUnavailable, statusCode: status,
                message: "the server signs nobody in at an OpenID Connect issuer: log in with a password, or start "
                    + "it with --auth oauth and an --oidc-issuer it can read the discovery document of")
        }
        return issuer
    }

    /// The authorization request through `browser`, then the code traded for tokens at the issuer.
    private func signIn(
        at issuer: OAuthIssuer, clientId: String, urlScheme: String, browser: some OAuthBrowser
    ) async throws(MusterClientError) -> AuthTokens {
        let proof = ProofKey()
        let redirectURI = browser.redirectURI(urlScheme: urlScheme)
        guard var address = URLComponents(url: issuer.authorizationEndpoint, resolvingAgainstBaseURL: false) else {
            throw MusterClientError(
                code: .invalidResponse, message: "authorizationEndpoint \(issuer.authorizationEndpoint) is not a URL")
        }
        address.queryItems =
            (address.queryItems ?? []) + [
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "client_id", value: clientId),
                URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
                URLQueryItem(name: "scope", value: issuer.scope),
                URLQueryItem(name: "state", value: proof.state),
                URLQueryItem(name: "code_challenge", value: proof.challenge),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        guard let authorizationURL = address.url else {
            throw MusterClientError(code: .invalidArgument, message: "cannot build the authorization URL")
        }
        let callback: URL
        do {
            callback = try await browser.signIn(at: authorizationURL, redirectURI: redirectURI)
        } catch let error as MusterClientError {
            throw error
        } catch {
            throw MusterClientError(code: .cancelled, message: "the sign-in at the issuer did not finish: \(error)")
        }
        let code = try Self.authorizationCode(in: callback, state: proof.state)
        let answer = try await issuerTokens(
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
                ("client_id", clientId), ("code_verifier", proof.verifier),
            ], at: issuer.tokenEndpoint)
        var tokens = answer.tokens(now: now())
        tokens.tokenEndpoint = issuer.tokenEndpoint
        tokens.clientId = clientId
        return tokens
    }

    /// The `code` of the issuer's redirect, after checking it answers the request that carried `state`.
    static func authorizationCode(in callback: URL, state: String) throws(MusterClientError) -> String {
        let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
        if let error = item("error") {
            throw MusterClientError(
                code: .init(rawValue: error),
                message: "the issuer refused the sign-in: \(item("error_description") ?? error)")
        }
        guard item("state") == state else {
            throw MusterClientError(
                code: .invalidResponse,
                message: "the issuer's answer is not for this sign-in (its state does not match); sign in again")
        }
        guard let code = item("code"), !code.isEmpty else {
            throw MusterClientError(
                code: .invalidResponse, message: "the issuer sent the person back without a code or an error")
        }
        return code
    }

    /// A new ID token for an OAuth login's refresh token, from the issuer's token endpoint.
    func renewedAtIssuer(_ stale: AuthTokens, refreshToken: String, endpoint: URL) async throws(MusterClientError)
        -> AuthTokens
    {
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let clientId = stale.clientId { form.append(("client_id", clientId)) }
        var renewed = try await issuerTokens(form, at: endpoint).tokens(now: now())
        // An issuer that does not rotate refresh tokens leaves the old one valid.
        renewed.refreshToken = renewed.refreshToken ?? refreshToken
        renewed.tokenEndpoint = endpoint
        renewed.clientId = stale.clientId
        // Who the user is was settled when the server verified the first token.
        renewed.username = stale.username ?? renewed.username
        renewed.preferredUsername = stale.preferredUsername ?? renewed.preferredUsername
        return renewed
    }

    /// Posts `form` to the issuer's token endpoint and reads its answer; its refusal keeps the issuer's code.
    private func issuerTokens(_ form: [(String, String)], at endpoint: URL) async throws(MusterClientError)
        -> IssuerTokens
    {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let pairs = form.map { "\(Self.formEncode($0))=\(Self.formEncode($1))" }
        request.httpBody = Data(pairs.joined(separator: "&").utf8)
        let (status, body) = try await issuerExchange(request)
        guard (200..<300).contains(status) else {
            let refusal = try? JSONDecoder().decode(IssuerRefusal.self, from: body)
            let why = refusal?.error_description ?? refusal?.error ?? "HTTP \(status)"
            throw MusterClientError(
                code: .init(rawValue: refusal?.error ?? MusterClientError.Code.httpStatus.rawValue), statusCode: status,
                message: "the issuer's token endpoint refused: \(why)")
        }
        guard let answer = try? JSONDecoder().decode(IssuerTokens.self, from: body) else {
            throw MusterClientError(
                code: .invalidResponse, statusCode: status,
                message: "the issuer's token endpoint answered without an ID token (id_token)")
        }
        return answer
    }

    /// One request to the issuer or the app's files, outside `/api/v1`; the status and body.
    private func issuerExchange(_ request: URLRequest) async throws(MusterClientError) -> (Int, Data) {
        do {
            let (data, response) = try await urlSession.exchange(request)
            guard let http = response as? HTTPURLResponse else {
                throw MusterClientError(
                    code: .invalidResponse, message: "\(request.url?.absoluteString ?? "the address") is not HTTP")
            }
            return (http.statusCode, data)
        } catch let error as MusterClientError {
            throw error
        } catch {
            throw MusterClientError.transport(error, url: request.url)
        }
    }

    /// `application/x-www-form-urlencoded`: everything but RFC 3986's unreserved characters percent-encoded.
    static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? text
    }

    private static let formAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// The token endpoint's answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
private struct IssuerTokens: Decodable {
    var idToken: String
    var refreshToken: String?
    var expiresIn: Double?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }

    /// The ID token as the bearer; its `exp`, or else `expires_in`, says when it expires.
    func tokens(now: Date) -> AuthTokens {
        var tokens = AuthTokens(oauthJWT: idToken)
        tokens.refreshToken = refreshToken
        if tokens.expiresAt == nil, let expiresIn { tokens.expiresAt = now.addingTimeInterval(expiresIn) }
        return tokens
    }
}

/// The token endpoint's refusal (RFC 6749 §5.2).
private struct IssuerRefusal: Decodable {
    var error: String?
    var error_description: String?
}

extension MusterClientError.Code {
    /// Client: the server signs nobody in at an OpenID Connect issuer (no `singleSignOn` in its configuration).
    public static let signInUnavailable = Self(rawValue: "sign_in_unavailable")
}
