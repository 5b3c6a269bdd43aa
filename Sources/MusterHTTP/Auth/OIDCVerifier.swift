import Foundation
import JWTKit

/// Checks bearer JWTs from a configured OpenID Connect issuer: signature against its JWKS (RS256,
/// ES256 …), `iss`, `aud` and `exp`.
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

    /// Who a valid token names.
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

    /// The identity of a valid token; throws `AuthenticationError` otherwise.
    func verify(_ token: String) async throws -> Identity {
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw OIDCRejection.expired
        } catch {
            throw OIDCRejection.invalid("\(error)")
        }
        guard claims.iss.value == configuration.issuer else {
            throw OIDCRejection.invalid("issuer \(claims.iss.value) is not \(configuration.issuer)")
        }
        do {
            try claims.aud.verifyIntendedAudience(includes: configuration.audience)
        } catch {
            throw OIDCRejection.invalid("audience \(claims.aud.value) does not include \(configuration.audience)")
        }
        return Identity(subject: claims.sub.value, preferredUsername: claims.preferredUsername)
    }

    private struct Claims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var sub: SubjectClaim
        var preferredUsername: String?

        enum CodingKeys: String, CodingKey {
            case iss, aud, exp, sub
            case preferredUsername = "preferred_username"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }
}

/// Why a bearer JWT was refused.
enum OIDCRejection: Error, Sendable {
    case expired
    case invalid(String)
}

/// The OIDC settings cannot be used (unreadable JWKS …).
public struct OIDCConfigurationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
