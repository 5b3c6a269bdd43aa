import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOFoundationCompat

/// The claims of the assertion a service account exchanges for an access token (RFC 7523, RS256).
public struct FCMAssertionClaims: JWTPayload, Hashable {
    /// The OAuth scope that allows sending through FCM.
    public static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"

    /// The service account's `client_email`.
    public var iss: String
    public var scope: String
    /// The `token_uri` the assertion is sent to.
    public var aud: String
    public var iat: Int
    /// One hour after `iat`, the longest Google accepts.
    public var exp: Int

    /// Nothing to check when signing; the token endpoint checks the claims itself.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The token endpoint failed; `reason` says how, without the assertion or any key.
struct FCMTokenEndpointFailure: Error {
    var reason: String
}

/// Exchanges signed assertions for access tokens at the service account's `token_uri`.
struct FCMTokenExchange: Sendable {
    /// How long before `expires_in` runs out a token is renewed.
    static let margin: TimeInterval = 5 * 60

    private let account: ServiceAccount
    private let keys: JWTKeyCollection
    private let client: HTTPClient
    private let timeout: Duration

    init(account: ServiceAccount, client: HTTPClient, timeout: Duration) async {
        self.account = account
        self.client = client
        self.timeout = timeout
        keys = JWTKeyCollection()
        await keys.add(rsa: account.privateKey, digestAlgorithm: .sha256)
    }

    /// A new access token, to be renewed `margin` before it expires.
    func fetch(now: Date) async throws -> BearerTokenCache.Token {
        let issuedAt = Int(now.timeIntervalSince1970.rounded(.down))
        let claims = FCMAssertionClaims(
            iss: account.clientEmail, scope: FCMAssertionClaims.messagingScope, aud: account.tokenURI.absoluteString,
            iat: issuedAt, exp: issuedAt + 3600)
        let assertion: String
        do {
            assertion = try await keys.sign(claims)
        } catch {
            throw FCMTokenEndpointFailure(reason: "the assertion could not be signed")
        }
        var request = HTTPClientRequest(url: account.tokenURI.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form =
            "grant_type=\(Self.formEncoded("urn:ietf:params:oauth:grant-type:jwt-bearer"))"
            + "&assertion=\(Self.formEncoded(assertion))"
        request.body = .bytes(ByteBuffer(string: form))

        let answer: ProviderHTTP.Answer
        do {
            answer = try await ProviderHTTP.exchange(client, request, timeout: timeout)
        } catch {
            if case .retry(_, let reason, _) = ProviderHTTP.outcome(of: error) {
                throw FCMTokenEndpointFailure(reason: reason)
            }
            throw FCMTokenEndpointFailure(reason: "connection failed")
        }
        guard (200...299).contains(answer.status) else {
            throw FCMTokenEndpointFailure(
                reason: "answered HTTP \(answer.status)" + (Self.errorCode(answer.body).map { " (\($0))" } ?? ""))
        }
        struct Token: Decodable {
            var access_token: String
            var expires_in: Int
        }
        guard let token = try? JSONDecoder().decode(Token.self, from: answer.body), !token.access_token.isEmpty else {
            throw FCMTokenEndpointFailure(reason: "answered without access_token and expires_in")
        }
        let lifetime = max(TimeInterval(token.expires_in) - Self.margin, 0)
        return .init(value: token.access_token, renewAt: now.addingTimeInterval(lifetime))
    }

    /// The OAuth `error` code of a refusal (`invalid_grant`), only when it is a short code: the description
    /// is left out, so no text of the request comes back in a reason.
    private static func errorCode(_ body: ByteBuffer) -> String? {
        struct Refusal: Decodable { var error: String }
        guard let code = try? JSONDecoder().decode(Refusal.self, from: body).error, code.count <= 40,
            code.allSatisfy({ $0.isLetter || $0 == "_" })
        else { return nil }
        return code
    }

    /// `value` percent-encoded for an `application/x-www-form-urlencoded` body.
    private static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
