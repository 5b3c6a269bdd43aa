import Foundation
import JWTKit
import NIOSSL

/// The key that signs APNs provider tokens: the P-256 private key of Apple's `AuthKey_KEYID.p8`.
public struct APNsSigningKey: Sendable {
    let key: ES256PrivateKey

    /// Reads the `.p8` file's text (`muster push-sources add apns --key-file`).
    public init(pem: String) throws {
        do {
            key = try ES256PrivateKey(pem: pem)
        } catch {
            throw PushConfigurationError(
                "--key-file", "expected a PKCS#8 P-256 private key in PEM, as Apple's AuthKey_KEYID.p8")
        }
    }

    /// The matching public key in PEM, to check the tokens' signatures.
    public var publicKeyPEM: String { key.publicKey.pemRepresentation }
}

/// The TLS client certificate and key APNs accepts in place of provider tokens, read from a PKCS#12 file.
public struct APNsClientIdentity: Sendable {
    /// The certificate first, then any intermediates the file holds.
    public let certificateChain: [NIOSSLCertificate]
    public let privateKey: NIOSSLPrivateKey

    /// Reads a PKCS#12 file's bytes (`--certificate`) protected by `password` (`--password-stdin`).
    ///
    /// A file that is not PKCS#12 names `--certificate`; one that does not open with the password names
    /// `--password-stdin`.
    public init(pkcs12: [UInt8], password: String) throws {
        // A PKCS#12 file is one DER SEQUENCE; anything else cannot be a certificate file.
        guard pkcs12.first == 0x30, pkcs12.count > 16 else {
            throw PushConfigurationError(
                "--certificate", "expected a PKCS#12 (.p12) file holding a certificate and its key")
        }
        do {
            let bundle = try NIOSSLPKCS12Bundle(buffer: pkcs12, passphrase: Array(password.utf8))
            certificateChain = bundle.certificateChain
            privateKey = bundle.privateKey
        } catch {
            // BoringSSL names a failed decryption INCORRECT_PASSWORD (PKCS8 or PKCS12 routines); any other failure
            // is a file that is not a readable PKCS#12.
            if "\(error)".contains("INCORRECT_PASSWORD") || "\(error)".contains("BAD_PASSWORD") {
                throw PushConfigurationError("--password-stdin", "the password does not open the PKCS#12 file")
            }
            throw PushConfigurationError(
                "--certificate", "expected a PKCS#12 (.p12) file holding a certificate and its key (\(error))")
        }
    }
}
