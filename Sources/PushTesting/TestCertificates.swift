import Crypto
import Foundation
import NIOSSL
import X509

/// A certificate made for a test with a fresh P-256 key: a local server's TLS certificate, or a client identity.
///
/// Self-signed, so whoever should accept it trusts the certificate itself (`additionalTrustRoots` on a client,
/// `trustRoots` on a server asking for client certificates).
public struct TestCertificate: Sendable {
    /// The certificate in PEM.
    public let certificatePEM: String
    /// Its private key, PKCS#8 in PEM.
    public let privateKeyPEM: String

    /// A certificate for `commonName`, valid from an hour ago for a day, naming the hosts it serves (`localhost`
    /// and 127.0.0.1 by default) and good for TLS servers and clients alike.
    ///
    /// It has no key usage extension: one without `keyCertSign` would keep BoringSSL from taking the certificate
    /// as its own issuer, and so as a trust anchor.
    public static func selfSigned(
        commonName: String, dnsNames: [String] = ["localhost"], ipv4Addresses: [[UInt8]] = [[127, 0, 0, 1]]
    ) throws -> TestCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            OrganizationName("Muster tests")
            CommonName(commonName)
        }
        let names =
            dnsNames.map { GeneralName.dnsName($0) } + ipv4Addresses.map { .ipAddress(.init(contentBytes: $0[...])) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(24 * 3600),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key))
        return TestCertificate(
            certificatePEM: try certificate.serializeAsPEM().pemString, privateKeyPEM: key.pemRepresentation)
    }

    /// The certificate as NIOSSL uses it.
    public func nioCertificate() throws -> NIOSSLCertificate {
        try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
    }

    /// The key as NIOSSL uses it.
    public func nioPrivateKey() throws -> NIOSSLPrivateKey {
        try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
    }

    /// The certificate and its key as a PKCS#12 file protected by `password`, as Apple's `.p12` export.
    public func pkcs12(password: String) throws -> [UInt8] {
        try NIOSSLPKCS12Bundle(certificateChain: [nioCertificate()], privateKey: nioPrivateKey())
            .serialize(passphrase: Array(password.utf8))
    }
}
