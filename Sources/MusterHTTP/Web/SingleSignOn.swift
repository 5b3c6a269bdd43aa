import Foundation

/// Signing in through the browser when the server takes an OpenID Connect issuer's tokens (`serve --auth oauth`):
/// the web app sends people to the issuer's authorization endpoint (authorization code with PKCE, as a public
/// client) and trades the code for tokens at its token endpoint, both read from the issuer's discovery document.
public struct SingleSignOn: Sendable, Hashable, Encodable {
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    /// The client id the app signs in as; the ID token it gets names it as audience, which the server checks.
    public var clientId: String
    public var scope = "openid profile"

    /// What `/.well-known/openid-configuration` of `issuer` says; throws naming the member that is missing or
    /// not an http(s) URL, or when the document names another issuer.
    public init(discovery: Data, issuer: String, clientId: String) throws(SingleSignOnError) {
        struct Discovery: Decodable {
            var issuer: String?
            var authorization_endpoint: String?
            var token_endpoint: String?
        }
        guard let document = try? JSONDecoder().decode(Discovery.self, from: discovery) else {
            throw SingleSignOnError("is not an OpenID Connect discovery document (JSON object)")
        }
        guard document.issuer == issuer else {
            throw SingleSignOnError("names issuer \(document.issuer ?? "none"), not \(issuer)")
        }
        authorizationEndpoint = try Self.url(document.authorization_endpoint, "authorization_endpoint")
        tokenEndpoint = try Self.url(document.token_endpoint, "token_endpoint")
        self.clientId = clientId
    }

    /// Where the browser fetches from (the token endpoint's origin), for the Content-Security-Policy.
    var tokenOrigin: String? { Self.origin(of: tokenEndpoint) }

    static func origin(of address: String) -> String? {
        guard let url = URL(string: address), let scheme = url.scheme, let host = url.host else { return nil }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    private static func url(_ value: String?, _ member: String) throws(SingleSignOnError) -> String {
        guard let value, let url = URL(string: value), ["http", "https"].contains(url.scheme), url.host != nil else {
            throw SingleSignOnError("\(member) must be an http(s) URL, not \(value ?? "missing")")
        }
        return value
    }
}

/// A discovery document the web app cannot sign in with.
public struct SingleSignOnError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
