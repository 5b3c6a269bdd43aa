import Crypto
import Foundation
import JWTKit

/// Voluntary Application Server Identification (RFC 8292): the `Authorization: vapid t=<JWT>, k=<public key>`
/// header that identifies the application server to a push service, and its checking on the service's side.
public enum VAPID {
    /// How long a signed token is valid: half the 24 hours RFC 8292 allows.
    public static let lifetime: TimeInterval = 12 * 3600
    /// A cached token is signed again once less than this remains of it.
    public static let renewal: TimeInterval = 6 * 3600

    /// The origin of `url` (`scheme://host[:port]`, the port only when not the scheme's default): the `aud` of the
    /// token for a push service. Nil without a scheme or a host.
    public static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), var host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = ["https": 443, "http": 80][scheme]
        if let port = url.port, port != defaultPort { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }

    /// Checks the contact the push service may reach the operator at (the token's `sub`): a `mailto:` address or an
    /// `https:` URL. The error names `--subject`.
    public static func check(subject: String) throws(PushConfigurationError) {
        let lowered = subject.lowercased()
        if lowered.hasPrefix("mailto:") {
            let address = subject.dropFirst("mailto:".count)
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !address.contains(where: \.isWhitespace) {
                return
            }
        } else if lowered.hasPrefix("https:"), let url = URL(string: subject), let host = url.host, !host.isEmpty {
            return
        }
        throw PushConfigurationError(
            "--subject", "expected a mailto: address or an https: URL to contact the operator, got \"\(subject)\"")
    }

    /// Checks an `Authorization` header as a push service does: the `vapid` scheme, a token signed (ES256) by the
    /// key `k`, for `audience` (the service's origin), not expired and expiring within 24 hours of `now`; and, when
    /// `expectedKey` is given (base64url), that `k` is that key. Returns the token's claims.
    public static func verify(
        authorization: String, audience: String, expectedKey: String? = nil, now: Date = Date()
    ) async throws(VAPIDError) -> VAPIDClaims {
        let (token, key) = try parse(authorization)
        guard let point = WebPushBase64URL.decode(key), point.count == 65 else {
            throw VAPIDError("k is not base64url of a 65-byte P-256 public key")
        }
        if let expectedKey, WebPushBase64URL.decode(expectedKey) != point {
            throw VAPIDError("k is not the application server's key")
        }
        let payload: VAPIDPayload
        do {
            let publicKey = try ES256PublicKey(backing: P256.Signing.PublicKey(x963Representation: point))
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: publicKey)
            payload = try await keys.verify(token, as: VAPIDPayload.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw VAPIDError("the token's signature does not verify with k")
        } catch {
            throw VAPIDError("the token does not verify with k: \(error)")
        }
        guard payload.aud.value.contains(audience) else {
            throw VAPIDError("the token is for \(payload.aud.value.joined(separator: ", ")), not \(audience)")
        }
        guard payload.exp.value > now else { throw VAPIDError("the token expired at \(payload.exp.value)") }
        guard payload.exp.value <= now.addingTimeInterval(24 * 3600) else {
            throw VAPIDError("the token expires more than 24 hours ahead, at \(payload.exp.value)")
        }
        return VAPIDClaims(
            audience: audience, expiresAt: payload.exp.value, subject: payload.sub?.value, publicKey: key)
    }

    /// The `t` and `k` of `vapid t=…, k=…`.
    private static func parse(_ authorization: String) throws(VAPIDError) -> (token: String, key: String) {
        let trimmed = authorization.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("vapid ") else {
            throw VAPIDError("expected the vapid scheme (vapid t=…, k=…), got \"\(trimmed.prefix(20))…\"")
        }
        var parameters: [String: String] = [:]
        for item in trimmed.dropFirst("vapid ".count).split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            parameters[name] = pair[1].trimmingCharacters(in: CharacterSet.whitespaces.union(["\""]))
        }
        guard let token = parameters["t"], !token.isEmpty else { throw VAPIDError("the t= parameter is missing") }
        guard let key = parameters["k"], !key.isEmpty else { throw VAPIDError("the k= parameter is missing") }
        return (token, key)
    }
}

/// Signs the VAPID tokens of one application server key and contact, one per push service origin, kept until
/// `VAPID.renewal` before they expire.
public actor VAPIDSigner {
    /// The key the tokens are signed with.
    public nonisolated let key: VAPIDKey
    /// The contact (`sub`): a `mailto:` address or an `https:` URL.
    public nonisolated let subject: String
    private let signingKey: ES256PrivateKey
    private let serializer: DefaultJWTSerializer
    private let keys: JWTKeyCollection
    /// Whether `signingKey` was added to `keys` (an actor: added on first use).
    private var keyAdded = false
    private var cache: [String: (header: String, expiresAt: Date)] = [:]

    /// A signer for `key`; throws when `subject` is neither a `mailto:` address nor an `https:` URL.
    public init(key: VAPIDKey, subject: String) throws(PushConfigurationError) {
        try VAPID.check(subject: subject)
        self.key = key
        self.subject = subject
        serializer = DefaultJWTSerializer(jsonEncoder: Self.encoder)
        keys = JWTKeyCollection(defaultJWTSerializer: serializer)
        // Made from a valid swift-crypto key: cannot fail.
        signingKey = try! ES256PrivateKey(backing: key.privateKey)
    }

    /// The `Authorization` header for a push to `endpoint`: `vapid t=<JWT>, k=<public key>`, the token for the
    /// endpoint's origin, signed again when less than `VAPID.renewal` of it remains.
    public func authorization(for endpoint: URL, now: Date = Date()) async throws(VAPIDError) -> String {
        guard let audience = VAPID.origin(of: endpoint) else {
            throw VAPIDError("the endpoint \(endpoint.absoluteString) has no origin")
        }
        if let cached = cache[audience], cached.expiresAt.timeIntervalSince(now) > VAPID.renewal {
            return cached.header
        }
        if !keyAdded {
            await keys.add(ecdsa: signingKey, serializer: serializer)
            keyAdded = true
        }
        let expiresAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + VAPID.lifetime).rounded(.down))
        let payload = VAPIDPayload(
            aud: AudienceClaim(value: audience), exp: ExpirationClaim(value: expiresAt),
            sub: SubjectClaim(value: subject))
        let token: String
        do {
            token = try await keys.sign(payload)
        } catch {
            throw VAPIDError("signing the token failed: \(error)")
        }
        let header = "vapid t=\(token), k=\(key.publicKey)"
        cache[audience] = (header, expiresAt)
        return header
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .integerSecondsSince1970
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }
}

/// What a verified VAPID token says.
public struct VAPIDClaims: Sendable, Hashable {
    /// The origin the token is for (`aud`).
    public var audience: String
    /// When it expires (`exp`).
    public var expiresAt: Date
    /// The operator's contact (`sub`), when given.
    public var subject: String?
    /// The application server's public key (`k`), base64url.
    public var publicKey: String
}

/// An Authorization header that is not a valid VAPID one, or a token that could not be signed, and why.
public struct VAPIDError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The claims of RFC 8292 §2: audience, expiry, contact.
struct VAPIDPayload: JWTPayload {
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var sub: SubjectClaim?

    /// The claims are checked by `VAPID.verify` against its own clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
