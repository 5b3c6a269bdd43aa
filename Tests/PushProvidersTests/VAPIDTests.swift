import Foundation
import PushProviders
import Testing

@Suite struct VAPIDTests {
    static let endpoint = URL(string: "https://push.example:8443/send/abc")!
    static let audience = "https://push.example:8443"

    @Test func theHeaderVerifiesForTheEndpointsOrigin() async throws {
        let key = VAPIDKey()
        let signer = try VAPIDSigner(key: key, subject: "mailto:ops@muster.example")
        let now = Date()
        let header = try await signer.authorization(for: Self.endpoint, now: now)
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(", k=\(key.publicKey)"))
        let claims = try await VAPID.verify(authorization: header, audience: Self.audience, expectedKey: key.publicKey)
        #expect(claims.subject == "mailto:ops@muster.example")
        #expect(claims.publicKey == key.publicKey)
        #expect(abs(claims.expiresAt.timeIntervalSince(now) - 12 * 3600) < 2)
    }

    @Test func theTokenCarriesAudExpAndSubAsRFC8292Shows() async throws {
        let signer = try VAPIDSigner(key: VAPIDKey(), subject: "mailto:ops@muster.example")
        let now = Date(timeIntervalSince1970: 1_800_000_000.75)
        let header = try await signer.authorization(for: Self.endpoint, now: now)
        let token = try #require(header.split(separator: " ").dropFirst().first).dropFirst("t=".count).dropLast()
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let json = try #require(WebPushBase64URL.decode(parts[1]))
        let claims = try #require(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        #expect(claims["aud"] as? String == Self.audience)
        #expect(claims["sub"] as? String == "mailto:ops@muster.example")
        #expect(String(decoding: json, as: UTF8.self).contains(#""exp":1800043200"#))
        let head = try #require(WebPushBase64URL.decode(parts[0]))
        let fields = try #require(JSONSerialization.jsonObject(with: Data(head)) as? [String: Any])
        #expect(fields["alg"] as? String == "ES256")
    }

    @Test func anotherKeyIsRefused() async throws {
        let signer = try VAPIDSigner(key: VAPIDKey(), subject: "https://muster.example/contact")
        let header = try await signer.authorization(for: Self.endpoint)
        let other = VAPIDKey().publicKey
        let swapped = try String(header[..<#require(header.range(of: "k=")).upperBound]) + other
        let error = await #expect(throws: VAPIDError.self) {
            try await VAPID.verify(authorization: swapped, audience: Self.audience)
        }
        #expect(error?.message.contains("signature") == true)
        await #expect(throws: VAPIDError.self) {
            try await VAPID.verify(authorization: header, audience: Self.audience, expectedKey: other)
        }
    }

    @Test func anotherAudienceIsRefused() async throws {
        let signer = try VAPIDSigner(key: VAPIDKey(), subject: "mailto:ops@muster.example")
        let header = try await signer.authorization(for: Self.endpoint)
        for audience in ["https://push.example", "https://other.example:8443", "http://push.example:8443"] {
            let error = await #expect(throws: VAPIDError.self) {
                try await VAPID.verify(authorization: header, audience: audience)
            }
            #expect(error?.message.contains("not \(audience)") == true)
        }
    }

    @Test func anExpiredTokenIsRefused() async throws {
        let signer = try VAPIDSigner(key: VAPIDKey(), subject: "mailto:ops@muster.example")
        let header = try await signer.authorization(for: Self.endpoint)
        await #expect(throws: VAPIDError.self) {
            try await VAPID.verify(
                authorization: header, audience: Self.audience, now: Date().addingTimeInterval(13 * 3600))
        }
    }

    @Test func aMalformedHeaderIsRefused() async {
        for header in ["", "Bearer abc", "vapid k=abc", "vapid t=a.b.c, k=AAAA"] {
            await #expect(throws: VAPIDError.self) {
                try await VAPID.verify(authorization: header, audience: Self.audience)
            }
        }
    }

    @Test func theTokenIsKeptPerOriginAndSignedAgainBeforeItExpires() async throws {
        let signer = try VAPIDSigner(key: VAPIDKey(), subject: "mailto:ops@muster.example")
        let now = Date()
        let first = try await signer.authorization(for: Self.endpoint, now: now)
        let elsewhere = URL(string: "https://push.example:8443/send/other")!
        #expect(try await signer.authorization(for: elsewhere, now: now.addingTimeInterval(3600)) == first)
        let otherOrigin = URL(string: "https://fcm.example/send/abc")!
        let other = try await signer.authorization(for: otherOrigin, now: now)
        #expect(other != first)
        _ = try await VAPID.verify(authorization: other, audience: "https://fcm.example")
        let later = now.addingTimeInterval(VAPID.lifetime - VAPID.renewal + 1)
        let renewed = try await signer.authorization(for: Self.endpoint, now: later)
        #expect(renewed != first)
        let claims = try await VAPID.verify(authorization: renewed, audience: Self.audience, now: later)
        #expect(claims.expiresAt > later.addingTimeInterval(11 * 3600))
    }

    @Test(arguments: ["ops@muster.example", "mailto:", "mailto:ops", "http://muster.example", "https://", ""])
    func theSubjectMustBeAMailtoOrHTTPSURL(_ subject: String) {
        #expect(
            throws: PushConfigurationError(
                "--subject", "expected a mailto: address or an https: URL to contact the operator, got \"\(subject)\"")
        ) {
            try VAPIDSigner(key: VAPIDKey(), subject: subject)
        }
    }

    @Test func theKeyIsStoredAsItsRawBytesAndLoadedBack() throws {
        let key = VAPIDKey()
        #expect(key.rawPrivateKey.count == 32)
        #expect(key.publicKeyBytes.count == 65 && key.publicKeyBytes.first == 0x04)
        #expect(WebPushBase64URL.decode(key.publicKey) == key.publicKeyBytes)
        #expect(try VAPIDKey(rawPrivateKey: key.rawPrivateKey).publicKey == key.publicKey)
        #expect(throws: PushConfigurationError.self) { try VAPIDKey(rawPrivateKey: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: PushConfigurationError.self) { try VAPIDKey(rawPrivateKey: [UInt8](repeating: 0, count: 32)) }
    }

    @Test func theOriginDropsTheDefaultPort() {
        #expect(VAPID.origin(of: URL(string: "https://Push.Example:443/a/b?c")!) == "https://push.example")
        #expect(VAPID.origin(of: URL(string: "https://push.example:8443/a")!) == "https://push.example:8443")
        #expect(VAPID.origin(of: URL(string: "http://127.0.0.1:8080/push/1")!) == "http://127.0.0.1:8080")
    }
}
