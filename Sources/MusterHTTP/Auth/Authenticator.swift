import EventLog
import Foundation
import Muster

/// Who a bearer token belongs to, by the server's type: `Internal` (tokens Muster issued at login)
/// or `OAuth` (JWTs of an OpenID Connect issuer, for users of the directory).
struct Authenticator: Sendable {
    enum Mode: Sendable {
        case `internal`
        case oauth(OIDCVerifier)
    }

    let mode: Mode
    let sessions: Sessions
    /// The namespace OAuth users belong to.
    let oauthNamespace: String

    /// The seed's serverType.
    var serverType: String {
        switch mode {
        case .internal: "Internal"
        case .oauth: "OAuth"
        }
    }

    /// The caller a bearer token names; throws an `APIError` (401) saying what to do otherwise.
    func principal(bearer token: String) async throws -> Sessions.Principal {
        switch mode {
        case .internal:
            return try sessions.authenticate(accessToken: token)
        case .oauth(let verifier):
            let identity: OIDCVerifier.Identity
            do {
                identity = try await verifier.verify(token)
            } catch OIDCRejection.expired {
                throw APIError(.unauthorized, "token_expired", "the token expired; get a new one from the issuer")
            } catch OIDCRejection.invalid(let why) {
                throw APIError(.unauthorized, "token_unknown", "the token was refused: \(why)")
            }
            let username = identity.preferredUsername ?? identity.subject
            guard let principal = try sessions.principal(username: username, namespace: oauthNamespace) else {
                throw APIError(
                    .forbidden, "forbidden",
                    "\(username) has a valid token but is not a user of namespace \(oauthNamespace); an administrator adds them (muster users add)"
                )
            }
            return principal
        }
    }
}
