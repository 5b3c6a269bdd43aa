import Crypto
import Foundation
import _CryptoExtras

/// The head of the commit chain at one moment, kept apart from the data directory (by an auditor, in a
/// ticket, in another system), so that later anyone can prove the log was not rewritten up to `position`:
/// `EventLog.check(_:)` recomputes the chain from the events and finds it still passes through `hash` there.
///
/// Signed with a key file it also proves who took it: the signature covers `signedBytes`, the position
/// (u64 big-endian) followed by the 32 bytes of the hash.
public struct Checkpoint: Codable, Sendable, Hashable {
    /// A signature over `signedBytes`, with the public key that checks it.
    public struct Signature: Codable, Sendable, Hashable {
        /// `ed25519` or `p256` (ECDSA with SHA-256).
        public var algorithm: CheckpointKey.Algorithm
        /// The signer's public key in PEM.
        public var publicKey: String
        /// The signature, base64 (Ed25519: 64 raw bytes; P-256: DER).
        public var value: String
    }

    /// The last position of the commit the checkpoint records (the head when it was taken).
    public var position: UInt64
    /// That commit's link hash, 64 hex digits.
    public var hash: String
    /// When the checkpoint was taken.
    public var createdAt: Date
    /// Present when taken with a key file.
    public var signature: Signature?

    /// The bytes a signature covers: position u64 BE · the hash's 32 bytes; nil when `hash` is not 64 hex digits.
    public var signedBytes: [UInt8]? {
        guard let hash = CommitChain.bytes(hex: hash), hash.count == CommitChain.hashSize else { return nil }
        return Key.position(position) + hash
    }

    /// This checkpoint signed with `key`.
    public func signed(with key: CheckpointKey) throws -> Checkpoint {
        guard let bytes = signedBytes else { throw Self.malformedHash(hash) }
        var signed = self
        signed.signature = Signature(
            algorithm: key.algorithm, publicKey: key.publicKeyPEM,
            value: Data(try key.sign(bytes)).base64EncodedString()
        )
        return signed
    }

    /// Whether the signature is valid for this position and hash; nil when the checkpoint is not signed.
    /// Throws when the signature's public key or value cannot be read.
    public func signatureIsValid() throws -> Bool? {
        guard let signature else { return nil }
        guard let bytes = signedBytes else { throw Self.malformedHash(hash) }
        guard let value = Data(base64Encoded: signature.value) else {
            throw StoreError(.invalidArgument, "the checkpoint's signature value is not base64")
        }
        do {
            switch signature.algorithm {
            case .ed25519:
                let key = try Curve25519.Signing.PublicKey(pemRepresentation: signature.publicKey)
                return key.isValidSignature(value, for: bytes)
            case .p256:
                let key = try P256.Signing.PublicKey(pemRepresentation: signature.publicKey)
                let ecdsa = try P256.Signing.ECDSASignature(derRepresentation: value)
                return key.isValidSignature(ecdsa, for: bytes)
            }
        } catch {
            throw StoreError(
                .invalidArgument,
                "the checkpoint's signature cannot be read as \(signature.algorithm.rawValue) (a PEM public key and a signature of that kind): \(error)"
            )
        }
    }

    private static func malformedHash(_ hash: String) -> StoreError {
        StoreError(
            .invalidArgument,
            "the checkpoint's hash \(String(reflecting: String(hash.prefix(80)))) is not 64 hex digits")
    }
}
