import Foundation

/// Where the server's OpenID Connect issuer signs people in: its endpoints, read by the server from the issuer's
/// discovery document (`serve --auth oauth --oidc-issuer …`), as `/app/config.json` hands them to the web app.
public struct OAuthIssuer: Sendable, Hashable, Codable {
    /// Where the person signs in (the authorization code flow's first leg).
    public var authorizationEndpoint: URL
    /// Where the code, and later the refresh token, is traded for tokens.
    public var tokenEndpoint: URL
    /// The client id the server expects ID tokens for (their audience).
    public var clientId: String
    /// The scopes asked for; `openid` at least.
    public var scope: String

    /// Creates the endpoints from their parts.
    public init(authorizationEndpoint: URL, tokenEndpoint: URL, clientId: String, scope: String = "openid profile") {
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.clientId = clientId
        self.scope = scope
    }
}
