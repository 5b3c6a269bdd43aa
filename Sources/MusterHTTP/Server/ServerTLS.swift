import Foundation
import NIOSSL

/// The certificate and key `muster serve --tls-cert --tls-key` answers HTTPS with (HTTP/2 or HTTP/1.1, as
/// the client's ALPN offers), for deployments without a proxy in front.
public struct ServerTLS: Sendable, Hashable {
    /// PEM file: the server's certificate, then any intermediates.
    public var certificateFile: String
    /// PEM file of the certificate's private key; readable by its owner only (mode 0600 or 0400).
    public var keyFile: String

    public init(certificateFile: String, keyFile: String) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// The server's TLS settings from the two files; throws `ServerTLSError` naming the file and what is wrong.
    func configuration() throws -> TLSConfiguration {
        let mode: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
            mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        } catch {
            throw ServerTLSError(option: "--tls-key", path: keyFile, problem: "cannot be read")
        }
        guard mode & 0o077 == 0 else {
            throw ServerTLSError(
                option: "--tls-key", path: keyFile,
                problem: "is readable by others (mode \(String(mode & 0o777, radix: 8))); chmod 600 it")
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw ServerTLSError(option: "--tls-cert", path: certificateFile, problem: "holds no PEM certificate")
        }
        guard !chain.isEmpty else {
            throw ServerTLSError(option: "--tls-cert", path: certificateFile, problem: "holds no PEM certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            // The error is not shown: it could quote what it read of the key.
            throw ServerTLSError(option: "--tls-key", path: keyFile, problem: "holds no PEM private key")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2", "http/1.1"]
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ServerTLSError(
                option: "--tls-key", path: keyFile, problem: "is not the key of the certificate in \(certificateFile)")
        }
        return configuration
    }
}

/// Why the TLS files were refused: the option, its file, and what is wrong with it.
public struct ServerTLSError: Error, Sendable, CustomStringConvertible {
    /// `--tls-cert` or `--tls-key`.
    public var option: String
    public var path: String
    public var problem: String

    public var description: String { "\(option) \(path) \(problem)" }
}
