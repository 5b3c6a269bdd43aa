import Crypto

/// A fresh APNs signing key, as Apple's `AuthKey_KEYID.p8` holds one: P-256, PKCS#8 in PEM.
public struct APNsTestKey: Sendable {
    /// The `.p8` file's text.
    public let pem: String
    /// The public half in PEM, for `APNsServer.Authentication.token`.
    public let publicKeyPEM: String

    public init() {
        let key = P256.Signing.PrivateKey()
        pem = key.pemRepresentation
        publicKeyPEM = key.publicKey.pemRepresentation
    }

    /// A P-384 key in PKCS#8 PEM: a key of the wrong curve, which APNs never issues.
    public static func p384PEM() -> String {
        P384.Signing.PrivateKey().pemRepresentation
    }
}
