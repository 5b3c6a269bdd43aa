import Foundation
import Hummingbird
import JWTKit
import NIOCore
import NIOSSL
import PushProviders

/// The request context of the local APNs: the channel, to tell HTTP/2 from HTTP/1.1 and to see the client's
/// certificate.
struct APNsServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// An HTTP/2 request arrives on a stream channel whose parent is the TLS connection (itself a child of the
    /// listening channel); an HTTP/1.1 request arrives on the connection itself.
    var isHTTP2: Bool { channel.parent?.parent != nil }

    /// Whether the TLS connection carrying the request presented a client certificate.
    func presentedClientCertificate() async -> Bool {
        let connection = isHTTP2 ? channel.parent ?? channel : channel
        let certificate = try? await connection.nioSSL_peerCertificate().get()
        return certificate != nil
    }
}

/// Apple's checks of one push request, with the reasons APNs gives.
struct APNsRequestChecker: Sendable {
    /// A refusal (status and APNs reason) or nil, and the provider token's claims when it was valid.
    struct Verdict {
        var status = 200
        var refusal: String?
        var claims: APNsProviderClaims?
    }

    private let topic: String
    private let keys: JWTKeyCollection?
    private let keyId: String
    private let teamId: String
    private let now: @Sendable () -> Date

    /// Checks for certificate authentication: the connection must carry a client certificate.
    init(topic: String, now: @escaping @Sendable () -> Date) {
        self.topic = topic
        keys = nil
        keyId = ""
        teamId = ""
        self.now = now
    }

    /// Checks for token authentication with the key whose public half is `publicKeyPEM`.
    init(topic: String, publicKeyPEM: String, keyId: String, teamId: String, now: @escaping @Sendable () -> Date)
        async throws
    {
        self.topic = topic
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: publicKeyPEM), kid: JWKIdentifier(string: keyId))
        self.keys = keys
        self.keyId = keyId
        self.teamId = teamId
        self.now = now
    }

    func check(token: String, headers: [String: String], body: Data, presentedCertificate: Bool) async -> Verdict {
        func refuse(_ status: Int, _ reason: String) -> Verdict { Verdict(status: status, refusal: reason) }
        guard !token.isEmpty, token.allSatisfy(\.isHexDigit) else { return refuse(400, "BadDeviceToken") }
        guard let sentTopic = headers["apns-topic"] else { return refuse(400, "MissingTopic") }
        guard sentTopic == topic else { return refuse(400, "DeviceTokenNotForTopic") }
        let pushType = headers["apns-push-type"]
        guard pushType == "alert" || pushType == "background" else { return refuse(400, "InvalidPushType") }
        // Apple: a background push must have priority 5 (10 is refused) and only content-available in aps.
        if pushType == "background" && headers["apns-priority"] != "5" { return refuse(400, "BadPriority") }
        guard let expiration = headers["apns-expiration"], Int(expiration) != nil else {
            return refuse(400, "BadExpirationDate")
        }
        if let priority = headers["apns-priority"], !["1", "5", "10"].contains(priority) {
            return refuse(400, "BadPriority")
        }
        if let collapseId = headers["apns-collapse-id"], collapseId.utf8.count > 64 {
            return refuse(400, "BadCollapseId")
        }
        guard body.count <= 4096 else { return refuse(413, "PayloadTooLarge") }
        guard let payload = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any], payload["aps"] != nil
        else { return refuse(400, "PayloadEmpty") }
        if pushType == "background",
            (payload["aps"] as? [String: Any])?["content-available"] as? Int != 1
                || (payload["aps"] as? [String: Any])?["alert"] != nil
        {
            return refuse(400, "InvalidPushType")
        }
        guard let keys else {
            return presentedCertificate ? Verdict() : refuse(403, "MissingProviderToken")
        }
        guard let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") else {
            return refuse(403, "MissingProviderToken")
        }
        let jwt = String(authorization.dropFirst("bearer ".count))
        guard let header = Self.header(of: jwt), header["alg"] as? String == "ES256", header["kid"] as? String == keyId,
            let claims = try? await keys.verify(jwt, as: APNsProviderClaims.self), claims.iss == teamId
        else { return refuse(403, "InvalidProviderToken") }
        let age = now().timeIntervalSince1970 - TimeInterval(claims.iat)
        guard age < 3600 else { return refuse(403, "ExpiredProviderToken") }
        guard age > -60 else { return refuse(403, "InvalidProviderToken") }
        return Verdict(claims: claims)
    }

    /// The JOSE header of a compact JWT.
    private static func header(of jwt: String) -> [String: Any]? {
        guard let first = jwt.split(separator: ".").first else { return nil }
        var base64 = first.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
