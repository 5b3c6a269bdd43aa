import Foundation

/// A certificate authority made for a test with `openssl` in `directory` (`ca.pem`, `ca.key`), with a server
/// certificate for 127.0.0.1 signed by it (`server.pem`, `server.key`), and client certificates on demand. Keys are
/// mode 0600; everything lives two days.
public struct TestCertificates: Sendable {
    /// Where the files are.
    public let directory: URL

    /// The certificates `make(in:)` made in `directory` before.
    public init(directory: URL) { self.directory = directory }

    /// The authority's certificate (PEM): what clients and servers check the others' certificates against.
    public var caFile: String { path("ca.pem") }
    /// The server's certificate and key (PEM), for IP address 127.0.0.1.
    public var serverCertificateFile: String { path("server.pem") }
    public var serverKeyFile: String { path("server.key") }

    /// Makes the authority and the server's certificate in `directory` (created when missing).
    public static func make(in directory: URL) async throws -> TestCertificates {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        let path = certificates.path
        try await run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=Muster test CA", "-keyout", path("ca.key"), "-out", path("ca.pem"),
        ])
        try await run([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", path("server.key"), "-out", path("server.csr"),
        ])
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("server.ext"))
        try await run([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-days", "2", "-extfile", path("server.ext"), "-out", path("server.pem"),
        ])
        for key in ["ca.key", "server.key"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path(key))
        }
        return certificates
    }

    /// A client certificate for `commonName` signed by the authority: its certificate and key files (PEM, the key
    /// mode 0600).
    public func client(commonName: String) async throws -> (certificateFile: String, keyFile: String) {
        let name = "client-\(UUID().uuidString.prefix(8))"
        try await Self.run([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=\(commonName)",
            "-keyout", path(name + ".key"), "-out", path(name + ".csr"),
        ])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path(name + ".key"))
        try await Self.run([
            "x509", "-req", "-in", path(name + ".csr"), "-CA", caFile, "-CAkey", path("ca.key"), "-CAcreateserial",
            "-days", "2", "-out", path(name + ".pem"),
        ])
        return (path(name + ".pem"), path(name + ".key"))
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `openssl arguments…` to its end, off the cooperative threads.
    private static func run(_ arguments: [String]) async throws {
        let status = await (try ChildProcess("/usr/bin/openssl", arguments)).waitForExit()
        guard status == 0 else {
            throw ChildProcessError(
                description: "openssl \(arguments.joined(separator: " ")) exited with wait status \(status)")
        }
    }
}
