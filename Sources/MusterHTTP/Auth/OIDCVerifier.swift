import Foundation
import JWTKit

/// Checks bearer JWTs from a configured OpenID Connect issuer: signature against its JWKS (RS256,
/// ES256 …), `iss`, `aud`, `exp` and `nbf`.
///
/// The Muster user is the one whose name is the token's `sub` (the issuer's stable identifier of
/// the person); `preferred_username` is only shown, never trusted: many issuers let people change it.
public struct OIDCVerifier: Sendable {
    /// Where the issuer's keys come from and what the tokens must say.
    public struct Configuration: Sendable, Hashable {
        public var issuer: String
        public var audience: String
        /// The JWKS document (`{"keys": [...]}`), read from a file or fetched from the issuer's URL.
        public var jwks: Data

        public init(issuer: String, audience: String, jwks: Data) {
            self.issuer = issuer
            self.audience = audience
            self.jwks = jwks
        }
    }

    /// Who a valid token names: `subject` is the Muster user name; `preferredUsername` is for display.
    struct Identity: Sendable, Hashable {
        var subject: String
        var preferredUsername: String?
    }

    private let keys: JWTKeyCollection
    private let configuration: Configuration

    public init(_ configuration: Configuration) async throws {
        self.configuration = configuration
        keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: String(decoding: configuration.jwks, as: UTF8.self))
        } catch {
            throw OIDCConfigurationError(message: "the JWKS is not usable: \(error)")
        }
    }

    /// The identity of a valid token; throws `OIDCRejection` otherwise.
    func verify(_ token: String) async throws -> Identity {
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch let rejection as OIDCRejection {
            throw rejection
        } catch {
            throw OIDCRejection(.badSignature, detail: "\(error)")
        }
        guard claims.iss.value == configuration.issuer else {
            throw OIDCRejection(.wrongIssuer, detail: "issuer \(claims.iss.value) is not \(configuration.issuer)")
        }
        do {
            try claims.aud.verifyIntendedAudience(includes: configuration.audience)
        } catch {
            throw OIDCRejection(
                .wrongAudience, detail: "audience \(claims.aud.value) does not include \(configuration.audience)")
        }
        return Identity(subject: claims.sub.value, preferredUsername: claims.preferredUsername)
    }

    private struct Claims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var nbf: NotBeforeClaim?
        var sub: SubjectClaim
        var preferredUsername: String?

        enum CodingKeys: String, CodingKey {
            case iss, aud, exp, nbf, sub
            case preferredUsername = "preferred_username"
        }

        /// Runs once the signature is checked.
        func verify(using algorithm: some JWTAlgorithm) async throws {
            let now = Date()
            guard now < exp.value else { throw OIDCRejection(.expired, detail: "exp \(exp.value)") }
            if let nbf, now < nbf.value { throw OIDCRejection(.notYetValid, detail: "nbf \(nbf.value)") }
        }
    }
}

/// Why a bearer JWT was refused: `reason` may be shown to the caller; `detail` (the library's
/// words) goes to the server's log only.
struct OIDCRejection: Error, Sendable {
    enum Reason: String, Sendable {
        case expired
        case notYetValid = "not yet valid"
        case wrongIssuer = "wrong issuer"
        case wrongAudience = "wrong audience"
        case badSignature = "bad signature"
    }

    var reason: Reason
    var detail: String

    init(_ reason: Reason, detail: String) {
        self.reason = reason
        self.detail = detail
    }
}

/// The OIDC settings cannot be used (unreadable JWKS …).
public struct OIDCConfigurationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
