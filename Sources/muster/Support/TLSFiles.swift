import ArgumentParser
import Foundation

/// The files of a TLS client's options (`--mqtt-ca-file`…, `--cluster-ca-file`…): the authorities' PEM file, and a
/// client certificate with its key, both or neither, the key owner-only. Each is checked readable here, so a
/// mistyped path is named before any connection is tried.
struct TLSFiles {
    var caFile: String
    var certificateFile: String?
    var keyFile: String?

    /// The files given with the options named `PREFIX-ca-file`, `PREFIX-cert-file`, `PREFIX-key-file`; nil when
    /// none is. `needs` says what else TLS takes, for the error of a certificate without an authority.
    static func checked(
        caFile: String?, certificateFile: String?, keyFile: String?, prefix: String, needs: String
    ) throws -> TLSFiles? {
        let (ca, cert, key) = ("\(prefix)-ca-file", "\(prefix)-cert-file", "\(prefix)-key-file")
        try readable(caFile, option: ca)
        guard certificateFile != nil || keyFile != nil else { return caFile.map { TLSFiles(caFile: $0) } }
        guard let certificateFile, let keyFile else {
            throw ValidationError("\(cert) and \(key) go together: give both or neither")
        }
        guard let caFile else { throw ValidationError("\(cert) and \(key) are for TLS: give \(needs) too") }
        try readable(certificateFile, option: cert)
        try SecretFile.requireOwnerOnly(keyFile, option: key)
        try readable(keyFile, option: key)
        return TLSFiles(caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
    }

    private static func readable(_ file: String?, option: String) throws {
        if let file, !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("\(option) \(file) cannot be read")
        }
    }
}
