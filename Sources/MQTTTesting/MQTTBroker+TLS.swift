import EventLogTesting
import Foundation
import MQTT

extension MQTTBroker {
    /// The test certificate authority's PEM file when the broker speaks TLS, for `MQTTTLS(caFile:)`.
    public var caFile: String? {
        let url = directory.appendingPathComponent("tls/ca.pem")
        return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
    }

    /// A client certificate for `commonName` signed by the test CA, with its key (mode 0600): the CA file, the
    /// certificate and the key as `MQTTTLS`. A broker started with `clientCertificates` takes its holder as user
    /// `commonName` (mosquitto's `use_identity_as_username`), without a password.
    public func clientTLS(commonName: String) async throws -> MQTTTLS {
        guard let caFile else {
            throw MQTTBrokerError(description: "the broker has no TLS: start it with tls: true for client certificates")
        }
        let client = try await TestCertificates(directory: directory.appendingPathComponent("tls")).client(
            commonName: commonName)
        return MQTTTLS(caFile: caFile, certificateFile: client.certificateFile, keyFile: client.keyFile)
    }

    /// Makes a CA and a server certificate for 127.0.0.1 signed by it; returns the listener's lines, with those that
    /// make clients show a certificate of that CA when `clientCertificates`.
    static func makeCertificates(in directory: URL, clientCertificates: Bool) async throws -> [String] {
        let made = try await TestCertificates.make(in: directory.appendingPathComponent("tls"))
        let files = [
            "cafile \(made.caFile)", "certfile \(made.serverCertificateFile)", "keyfile \(made.serverKeyFile)",
        ]
        return files + (clientCertificates ? ["require_certificate true", "use_identity_as_username true"] : [])
    }
}
