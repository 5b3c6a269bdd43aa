import EventLog
import Foundation
import Logging
import Muster
import MusterWire

/// Who a bearer token belongs to, by the server's type: `Internal` (tokens Muster issued at login)
/// or `OAuth` (JWTs of an OpenID Connect issuer; the directory's user named by the token's `sub`).
struct Authenticator: Sendable {
    enum Mode: Sendable {
        case `internal`
        case oauth(OIDCVerifier)
    }

    let mode: Mode
    let sessions: Sessions
    /// The namespace OAuth users belong to.
    let oauthNamespace: String
    /// Where the reasons for refused JWTs go (never to the caller).
    var logger = Logger(label: "muster.auth")

    /// The seed's serverType.
    var serverType: ServerType {
        switch mode {
        case .internal: .internal
        case .oauth: .oauth
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
            } catch let rejection as OIDCRejection {
                logger.info("bearer JWT refused: \(rejection.reason.rawValue): \(rejection.detail)")
                if rejection.reason == .expired {
                    throw APIError(.unauthorized, "token_expired", "the token expired; get a new one from the issuer")
                }
                throw APIError(.unauthorized, "token_unknown", "the token is not valid: \(rejection.reason.rawValue)")
            }
            // The user is the token's subject; preferred_username is only shown.
            guard var principal = try sessions.principal(username: identity.subject, namespace: oauthNamespace)
            else {
                throw APIError(
                    .forbidden, "forbidden",
                    "subject \(String(reflecting: identity.subject)) has a valid token but is not a user of namespace \(oauthNamespace); an administrator adds them under that name (muster users add)"
                )
            }
            principal.preferredUsername = identity.preferredUsername
            return principal
        }
    }
}
