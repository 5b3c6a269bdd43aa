import Foundation

extension MQTTBroker {
    /// The test certificate authority's PEM file when the broker speaks TLS, for `MQTTTLS(caFile:)`.
    public var caFile: String? {
        let url = directory.appendingPathComponent("tls/ca.pem")
        return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
    }

    /// Makes a CA and a server certificate for 127.0.0.1 signed by it with `openssl`; returns the listener's lines.
    static func makeCertificates(in directory: URL) async throws -> [String] {
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
        return ["cafile \(path("ca.pem"))", "certfile \(path("server.pem"))", "keyfile \(path("server.key"))"]
    }
}
