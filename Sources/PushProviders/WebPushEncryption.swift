import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188): one record, the
/// application server's ephemeral public key as the key id.
///
/// The body is `salt (16) ‖ rs (4, 4096) ‖ idlen (1, 65) ‖ as_public (65) ‖ AES-128-GCM(plaintext ‖ 0x02)`.
public enum WebPushEncryption {
    /// The record size written in the header.
    public static let recordSize = 4096
    /// The header's length: salt, record size, key id length and the 65-byte key.
    public static let headerSize = 16 + 4 + 1 + 65
    /// The most plaintext one message carries: a push service need accept no more than 4096 bytes of body
    /// (RFC 8030 §7.2), less the header, the padding delimiter and the 16-byte tag (RFC 8291 §4): 3993.
    public static let maximumPlaintext = 4096 - headerSize - 1 - 16

    /// Encrypts `plaintext` for `subscription`. The ephemeral key and salt are fresh unless given (a test
    /// vector gives both). Throws when the plaintext is longer than `maximumPlaintext` or the salt is not 16
    /// bytes.
    public static func encrypt(
        _ plaintext: some Collection<UInt8>, to subscription: WebPushSubscription,
        asPrivateKey: P256.KeyAgreement.PrivateKey? = nil, salt: [UInt8]? = nil
    ) throws(WebPushEncryptionError) -> [UInt8] {
        let asPrivateKey = asPrivateKey ?? ephemeralKey()
        guard plaintext.count <= maximumPlaintext else {
            throw WebPushEncryptionError(
                "the plaintext is \(plaintext.count) bytes; one Web Push record carries at most \(maximumPlaintext)")
        }
        // 16 random bytes from BoringSSL's generator in one call (a byte at a time was a getrandom(2) each).
        let salt = salt ?? SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        guard salt.count == 16 else { throw WebPushEncryptionError("the salt is \(salt.count) bytes, expected 16") }
        let asPublic = [UInt8](asPrivateKey.publicKey.x963Representation)
        let keys = try contentKeys(
            asPrivateKey: asPrivateKey, peer: subscription.p256dh,
            uaPublic: [UInt8](subscription.p256dh.x963Representation),
            asPublic: asPublic, auth: subscription.auth, salt: salt)
        var record = [UInt8](plaintext)
        record.append(0x02)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(record, using: keys.cek, nonce: keys.nonce)
        } catch {
            throw WebPushEncryptionError("AES-128-GCM failed: \(error)")
        }
        var body = salt
        body.reserveCapacity(headerSize + record.count + 16)
        withUnsafeBytes(of: UInt32(recordSize).bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(asPublic.count))
        body.append(contentsOf: asPublic)
        body.append(contentsOf: sealed.ciphertext)
        body.append(contentsOf: sealed.tag)
        return body
    }

    /// A fresh key pair for one message: its scalar from 32 random bytes of BoringSSL's generator, drawn again in
    /// the rare case (about 2⁻³²) that they are not a valid P-256 scalar. `P256.KeyAgreement.PrivateKey()` does the
    /// same and then a FIPS pairwise test — an ECDSA signature and its verification, three more scalar
    /// multiplications on every push (push-fanout in BENCHMARKS.md).
    static func ephemeralKey() -> P256.KeyAgreement.PrivateKey {
        while true {
            let scalar = SymmetricKey(size: .bits256)
            if let key = try? scalar.withUnsafeBytes({ try P256.KeyAgreement.PrivateKey(rawRepresentation: $0) }) {
                return key
            }
        }
    }

    /// Decrypts a message as the user agent does, with the subscription's private key and auth secret: a single
    /// record whose key id is the sender's 65-byte public key, padding ending in the 0x02 delimiter.
    public static func decrypt(
        _ body: some Collection<UInt8>, privateKey: P256.KeyAgreement.PrivateKey, auth: [UInt8]
    ) throws(WebPushEncryptionError) -> [UInt8] {
        let body = [UInt8](body)
        guard body.count >= headerSize + 16 + 1 else {
            throw WebPushEncryptionError("the body is \(body.count) bytes, shorter than a header and one record")
        }
        let salt = [UInt8](body[0..<16])
        let recordSize = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(body[20])
        guard idLength == 65 else {
            throw WebPushEncryptionError("the key id is \(idLength) bytes, expected the sender's 65-byte public key")
        }
        let asPublic = [UInt8](body[21..<86])
        let record = body[86...]
        guard recordSize >= 18, record.count <= recordSize else {
            throw WebPushEncryptionError(
                "the record is \(record.count) bytes for a record size of \(recordSize): expected a single record")
        }
        let peer: P256.KeyAgreement.PublicKey
        do {
            peer = try P256.KeyAgreement.PublicKey(x963Representation: asPublic)
        } catch {
            throw WebPushEncryptionError("the key id is not a P-256 public key")
        }
        let keys = try contentKeys(
            asPrivateKey: privateKey, peer: peer, uaPublic: [UInt8](privateKey.publicKey.x963Representation),
            asPublic: asPublic, auth: auth, salt: salt)
        var padded: [UInt8]
        do {
            let sealed = try AES.GCM.SealedBox(
                nonce: keys.nonce, ciphertext: record.dropLast(16), tag: record.suffix(16))
            padded = [UInt8](try AES.GCM.open(sealed, using: keys.cek))
        } catch {
            throw WebPushEncryptionError("the record does not decrypt with this subscription's keys")
        }
        while padded.last == 0 { padded.removeLast() }
        guard padded.last == 0x02 else {
            throw WebPushEncryptionError("the record does not end with the last record's padding delimiter 0x02")
        }
        padded.removeLast()
        return padded
    }

    /// RFC 8291 §3.4 then RFC 8188 §2.2–2.3: the shared secret and auth secret give the input keying material,
    /// which with the salt gives the content encryption key and the nonce (one record: sequence number 0).
    private static func contentKeys(
        asPrivateKey: P256.KeyAgreement.PrivateKey, peer: P256.KeyAgreement.PublicKey, uaPublic: [UInt8],
        asPublic: [UInt8], auth: [UInt8], salt: [UInt8]
    ) throws(WebPushEncryptionError) -> (cek: SymmetricKey, nonce: AES.GCM.Nonce) {
        let shared: SharedSecret
        do {
            shared = try asPrivateKey.sharedSecretFromKeyAgreement(with: peer)
        } catch {
            throw WebPushEncryptionError("P-256 key agreement failed: \(error)")
        }
        let keyInfo = Array("WebPush: info".utf8) + [0] + uaPublic + asPublic
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        do {
            return (cek, try AES.GCM.Nonce(data: nonceBytes.withUnsafeBytes { [UInt8]($0) }))
        } catch {
            throw WebPushEncryptionError("the derived nonce was refused: \(error)")
        }
    }
}

/// A Web Push message that cannot be encrypted (too long) or decrypted (not for these keys, malformed), and why.
public struct WebPushEncryptionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
