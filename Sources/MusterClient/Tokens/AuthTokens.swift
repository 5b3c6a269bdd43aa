import Foundation
import MusterWire

/// The tokens of a login and whom they belong to: what a ``TokenStore`` keeps between launches.
///
/// Decodes the server's `{"accessToken", "refreshToken", "expiresAt", "username", "preferredUsername"}`.
/// `description` leaves the tokens out, so printing one does not leak them.
public struct AuthTokens: Sendable, Hashable, Codable {
    /// The bearer token sent on every request.
    public var accessToken: String
    /// The token that buys a new pair when the access token expires; for an OAuth login, the issuer's, when
    /// it gave one.
    public var refreshToken: String?
    /// When the access token stops working; nil when unknown (it is then used until the server refuses it).
    public var expiresAt: Date?
    /// The authenticated user's username.
    public var username: String?
    /// The authenticated user's preferred username.
    public var preferredUsername: String?
    /// The server's authentication, so a restored login knows which way to log in again.
    public var serverType: ServerType?
    /// The server that issued them; a client of another server does not use them. Nil when unknown.
    public var server: URL?
    /// The namespace the login is in; nil for the server's default.
    public var namespace: String?
    /// Where an OAuth login's refresh token buys a new ID token: the issuer's token endpoint. Nil for the
    /// server's own tokens, which `POST /api/v1/auth/refresh` renews.
    public var tokenEndpoint: URL?
    /// The client id an OAuth login signed in as; the issuer wants it again with the refresh token.
    public var clientId: String?

    /// Creates tokens from their parts.
    public init(
        accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, username: String? = nil,
        preferredUsername: String? = nil, serverType: ServerType? = nil, server: URL? = nil, namespace: String? = nil,
        tokenEndpoint: URL? = nil, clientId: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.username = username
        self.preferredUsername = preferredUsername
        self.serverType = serverType
        self.server = server
        self.namespace = namespace
        self.tokenEndpoint = tokenEndpoint
        self.clientId = clientId
    }

    /// Tokens for an OAuth JWT: the expiry from its `exp` claim and the user from `sub` and
    /// `preferred_username`, when the JWT carries them (the signature is the server's to check, not ours).
    public init(oauthJWT jwt: String) {
        let claims = Self.claims(ofJWT: jwt)
        self.init(
            accessToken: jwt, refreshToken: nil,
            expiresAt: claims?["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) },
            username: claims?["sub"]?.stringValue,
            preferredUsername: claims?["preferred_username"]?.stringValue ?? claims?["sub"]?.stringValue,
            serverType: .oauth)
    }

    /// Whether the access token has expired by `now` or will within `leeway`.
    public func expires(within leeway: Duration, of now: Date) -> Bool {
        guard let expiresAt else { return false }
        let (seconds, attoseconds) = leeway.components
        return expiresAt.timeIntervalSince(now) <= Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whether these tokens may be sent to `serverURL`: they were issued by it, or their server is unknown.
    /// A trailing slash and the case of the scheme and host do not matter.
    public func belong(to serverURL: URL) -> Bool {
        guard let server else { return true }
        return Self.canonical(server) == Self.canonical(serverURL)
    }

    /// The URL's text with the scheme and host lowercased and no trailing slash.
    static func canonical(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        while components.path.hasSuffix("/") { components.path.removeLast() }
        return components.string ?? url.absoluteString
    }

    /// The claims of a JWT's payload (the middle, base64url part), when it is one.
    static func claims(ofJWT jwt: String) -> JSONValue? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let claims = try? JSONValue(json: data),
            claims.objectValue != nil
        else { return nil }
        return claims
    }
}

extension AuthTokens: CustomStringConvertible, CustomDebugStringConvertible {
    /// Whom the tokens are for and until when; never the tokens themselves.
    public var description: String {
        let who = username ?? "unknown user"
        let until = expiresAt.map { " until \(MusterJSON.formatDate($0))" } ?? ""
        return "AuthTokens(\(who)\(until), refresh token: \(refreshToken == nil ? "no" : "yes"))"
    }

    /// The same as `description`: the tokens stay out of logs.
    public var debugDescription: String { description }
}
