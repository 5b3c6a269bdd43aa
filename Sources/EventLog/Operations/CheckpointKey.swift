import Crypto
import Foundation
import _CryptoExtras

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private key that signs checkpoints: Ed25519 or P-256, read from a PEM file readable by its owner only.
///
/// The key never leaves this value: it is not `Codable` and its description names only the algorithm.
public struct CheckpointKey: Sendable, CustomStringConvertible {
    /// The signature algorithms a checkpoint can carry.
    public enum Algorithm: String, Codable, Sendable, Hashable {
        case ed25519, p256
    }

    private enum Secret: Sendable {
        case ed25519(Curve25519.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    private let secret: Secret

    /// An Ed25519 key.
    public init(_ key: Curve25519.Signing.PrivateKey) { secret = .ed25519(key) }
    /// A P-256 key (ECDSA with SHA-256).
    public init(_ key: P256.Signing.PrivateKey) { secret = .p256(key) }

    /// Reads a PEM private key (PKCS #8 for Ed25519; PKCS #8 or SEC 1 for P-256) from `file`, refusing a
    /// file that its group or others may read or write.
    public static func load(from file: URL) throws -> CheckpointKey {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            throw StoreError(
                .notFound, "cannot read key file \(file.path): \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw StoreError(
                .invalidArgument,
                "key file \(file.path) has mode \(String(mode, radix: 8)); a signing key must be readable by its owner only — chmod 600 \(file.path)"
            )
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw StoreError(.notFound, "cannot read key file \(file.path)")
        }
        let pem = String(decoding: data, as: UTF8.self)
        // The parse errors are not passed on: they say nothing useful and the text is a secret.
        if let key = try? Curve25519.Signing.PrivateKey(pemRepresentation: pem) { return CheckpointKey(key) }
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) { return CheckpointKey(key) }
        throw StoreError(
            .invalidArgument,
            "key file \(file.path) holds no Ed25519 or P-256 private key in PEM (a PKCS#8 PEM block, as `openssl genpkey` writes)"
        )
    }

    /// The algorithm of the key.
    public var algorithm: Algorithm {
        switch secret {
        case .ed25519: .ed25519
        case .p256: .p256
        }
    }

    /// The public half in PEM, which checks the signatures.
    public var publicKeyPEM: String {
        switch secret {
        case .ed25519(let key): key.publicKey.pemRepresentation
        case .p256(let key): key.publicKey.pemRepresentation
        }
    }

    public var description: String { "\(algorithm.rawValue) checkpoint key" }

    func sign(_ bytes: [UInt8]) throws -> [UInt8] {
        switch secret {
        case .ed25519(let key): Array(try key.signature(for: bytes))
        case .p256(let key): Array(try key.signature(for: bytes).derRepresentation)
        }
    }
}
