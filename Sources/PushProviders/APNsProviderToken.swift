import Foundation
import JWTKit

/// The claims of an APNs provider token: the team that signs (`iss`) and when it signed (`iat`, whole seconds).
///
/// Apple refuses a token older than an hour and one renewed more often than every 20 minutes; the provider
/// renews at 50 minutes.
public struct APNsProviderClaims: JWTPayload, Hashable {
    public var iss: String
    public var iat: Int

    /// Nothing to check when signing; the receiving side checks `iss` and `iat` itself.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Signs provider tokens with one `.p8` key.
struct APNsTokenSigner: Sendable {
    /// How long a signed token is used before a new one is signed.
    static let lifetime: TimeInterval = 50 * 60

    private let keys: JWTKeyCollection
    private let keyId: String
    private let teamId: String

    init(key: APNsSigningKey, keyId: String, teamId: String) async {
        keys = JWTKeyCollection()
        await keys.add(ecdsa: key.key, kid: JWKIdentifier(string: keyId))
        self.keyId = keyId
        self.teamId = teamId
    }

    /// A token signed at `now` (ES256, header `kid`), to be renewed `lifetime` later.
    func sign(at now: Date) async throws -> BearerTokenCache.Token {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims = APNsProviderClaims(iss: teamId, iat: Int(issuedAt))
        let token = try await keys.sign(claims, kid: JWKIdentifier(string: keyId))
        return .init(value: token, renewAt: Date(timeIntervalSince1970: issuedAt + Self.lifetime))
    }
}
