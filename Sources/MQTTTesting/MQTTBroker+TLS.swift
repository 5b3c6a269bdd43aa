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
        let tls = directory.appendingPathComponent("tls")
        let name = "client-\(UUID().uuidString.prefix(8))"
        func path(_ suffix: String) -> String { tls.appendingPathComponent(name + suffix).path }
        try await Self.run(
            "/usr/bin/openssl",
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                "/CN=\(commonName)", "-keyout", path(".key"), "-out", path(".csr"),
            ])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path(".key"))
        try await Self.run(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", path(".csr"), "-CA", caFile, "-CAkey", tls.appendingPathComponent("ca.key").path,
                "-CAcreateserial", "-days", "2", "-out", path(".pem"),
            ])
        return MQTTTLS(caFile: caFile, certificateFile: path(".pem"), keyFile: path(".key"))
    }

    /// Makes a CA and a server certificate for 127.0.0.1 signed by it with `openssl`; returns the listener's lines,
    /// with those that make clients show a certificate of that CA when `clientCertificates`.
    static func makeCertificates(in directory: URL, clientCertificates: Bool) async throws -> [String] {
        let tls = directory.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        func path(_ name: String) -> String { tls.appendingPathComponent(name).path }
        try await run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=Muster test CA", "-keyout", path("ca.key"), "-out", path("ca.pem"),
            ])
        try await run(
            "/usr/bin/openssl",
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", path("server.key"), "-out", path("server.csr"),
            ])
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: tls.appendingPathComponent("server.ext"))
        try await run(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", path("server.ext"), "-out", path("server.pem"),
            ])
        for key in ["ca.key", "server.key"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path(key))
        }
        let files = ["cafile \(path("ca.pem"))", "certfile \(path("server.pem"))", "keyfile \(path("server.key"))"]
        return files + (clientCertificates ? ["require_certificate true", "use_identity_as_username true"] : [])
    }
}
