import Crypto
import Foundation

/// The application server's P-256 signing key of VAPID (RFC 8292): signs the token of every push; its public key
/// is what browsers subscribe with as `applicationServerKey` (`GET /api/v1/push/vapid-public-key`).
public struct VAPIDKey: Sendable {
    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey

    /// A new random key.
    public init() { privateKey = P256.Signing.PrivateKey() }

    /// The key stored as `rawPrivateKey` (the 32-byte scalar); `argument` names where it came from in the error.
    public init(rawPrivateKey: some Collection<UInt8>, argument: String = "--vapid-private-key")
        throws(PushConfigurationError)
    {
        guard rawPrivateKey.count == 32 else {
            throw PushConfigurationError(
                argument, "expected a raw P-256 private key of 32 bytes, got \(rawPrivateKey.count)")
        }
        do {
            privateKey = try P256.Signing.PrivateKey(rawRepresentation: [UInt8](rawPrivateKey))
        } catch {
            throw PushConfigurationError(argument, "expected a P-256 private key, the 32 bytes are not one")
        }
    }

    /// The 32-byte private scalar: the secret to store.
    public var rawPrivateKey: [UInt8] { [UInt8](privateKey.rawRepresentation) }

    /// The public key as the 65-byte uncompressed point (0x04 ‖ x ‖ y).
    public var publicKeyBytes: [UInt8] { [UInt8](privateKey.publicKey.x963Representation) }

    /// The public key as base64url of the uncompressed point: the `k` of the Authorization header and the
    /// browsers' `applicationServerKey`.
    public var publicKey: String { WebPushBase64URL.encode(publicKeyBytes) }
}
