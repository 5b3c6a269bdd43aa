import Crypto
import Foundation
import PushProviders
import Testing

/// RFC 8291 Appendix A: the example's keys, salt and secret give its message byte for byte, and back.
@Suite struct WebPushEncryptionTests {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A"
        + "_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    static func bytes(_ base64URL: String) throws -> [UInt8] { try #require(WebPushBase64URL.decode(base64URL)) }

    static func subscription() throws -> WebPushSubscription {
        try WebPushSubscription(
            json:
                #"{"endpoint":"https://push.example/x","expirationTime":null,"keys":{"p256dh":"\#(uaPublic)","auth":"\#(auth)"}}"#
        )
    }

    @Test func encryptingGivesTheRFCsMessage() throws {
        let asKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Self.asPrivate))
        #expect(WebPushBase64URL.encode(asKey.publicKey.x963Representation) == Self.asPublic)
        let body = try WebPushEncryption.encrypt(
            Array(Self.plaintext.utf8), to: Self.subscription(), asPrivateKey: asKey, salt: Self.bytes(Self.salt))
        #expect(WebPushBase64URL.encode(body) == Self.body)
    }

    @Test func decryptingGivesTheRFCsPlaintext() throws {
        let uaKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Self.uaPrivate))
        let plaintext = try WebPushEncryption.decrypt(
            Self.bytes(Self.body), privateKey: uaKey, auth: Self.bytes(Self.auth))
        #expect(String(decoding: plaintext, as: UTF8.self) == Self.plaintext)
    }

    @Test func theLargestPlaintextFillsA4096ByteBody() throws {
        let subscription = try Self.subscription()
        let body = try WebPushEncryption.encrypt(
            [UInt8](repeating: 7, count: WebPushEncryption.maximumPlaintext), to: subscription)
        #expect(body.count == 4096)
        #expect(throws: WebPushEncryptionError.self) {
            try WebPushEncryption.encrypt(
                [UInt8](repeating: 7, count: WebPushEncryption.maximumPlaintext + 1), to: subscription)
        }
    }

    @Test func aFreshKeyAndSaltDecryptAndTamperingIsCaught() throws {
        let ua = P256.KeyAgreement.PrivateKey()
        let auth = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let subscription = try WebPushSubscription(
            endpoint: URL(string: "https://push.example/x")!, p256dh: ua.publicKey, auth: auth)
        let plaintext = Array(#"{"title":"Hello"}"#.utf8)
        let first = try WebPushEncryption.encrypt(plaintext, to: subscription)
        let second = try WebPushEncryption.encrypt(plaintext, to: subscription)
        // Each message has its own salt and its own ephemeral key (the header's key id).
        #expect(first.prefix(16) != second.prefix(16))
        #expect(first[21..<86] != second[21..<86] && first[21] == 0x04 && second[21] == 0x04)
        #expect(try WebPushEncryption.decrypt(first, privateKey: ua, auth: auth) == plaintext)
        #expect(try WebPushEncryption.decrypt(second, privateKey: ua, auth: auth) == plaintext)
        var tampered = first
        tampered[tampered.count - 20] ^= 1
        #expect(throws: WebPushEncryptionError.self) {
            try WebPushEncryption.decrypt(tampered, privateKey: ua, auth: auth)
        }
        #expect(throws: WebPushEncryptionError.self) {
            try WebPushEncryption.decrypt(first, privateKey: P256.KeyAgreement.PrivateKey(), auth: auth)
        }
        #expect(throws: WebPushEncryptionError.self) {
            try WebPushEncryption.decrypt(first.prefix(90), privateKey: ua, auth: auth)
        }
    }
}
