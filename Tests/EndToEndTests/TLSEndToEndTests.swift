import AsyncHTTPClient
import EventLogTesting
import Foundation
import NIOCore
import NIOSSL
import PushTesting
import Testing

/// `muster serve --tls-cert --tls-key`: HTTPS with HTTP/2 over ALPN and HTTP/1.1 alike, a live stream that ends when
/// its client leaves over either, and a key file others can read refused by name (issue 16).
@Suite(.serialized) struct TLSEndToEndTests {
    /// A fresh certificate for 127.0.0.1 and its key, written as PEM files, the key with `keyMode`.
    struct Files {
        let directory: TemporaryDirectory
        let certificate: TestCertificate
        let certificateFile: String
        let keyFile: String

        init(keyMode: Int) throws {
            directory = try TemporaryDirectory("tls")
            certificate = try TestCertificate.selfSigned(commonName: "127.0.0.1")
            certificateFile = directory.url.appendingPathComponent("server.pem").path
            keyFile = directory.url.appendingPathComponent("server.key").path
            try Data(certificate.certificatePEM.utf8).write(to: URL(fileURLWithPath: certificateFile))
            try Data(certificate.privateKeyPEM.utf8).write(to: URL(fileURLWithPath: keyFile))
            try FileManager.default.setAttributes([.posixPermissions: keyMode], ofItemAtPath: keyFile)
        }

        var arguments: [String] { ["--tls-cert", certificateFile, "--tls-key", keyFile] }
    }

    /// A client that trusts only the test certificate, speaking `version`.
    func client(trusting files: Files, version: HTTPClient.Configuration.HTTPVersion) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try files.certificate.nioCertificate()])
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = version
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    @Test func httpsAnswersOverHTTP2AndHTTP11() async throws {
        let files = try Files(keyMode: 0o600)
        defer { files.directory.remove() }
        let server = try await ServerProcess(extraArguments: files.arguments)
        #expect(server.base.scheme == "https", "\(server.started)")
        let base = server.base.absoluteString
        for (version, expected) in [
            (HTTPClient.Configuration.HTTPVersion.automatic, 2), (.http1Only, 1),
        ] {
            let client = try client(trusting: files, version: version)
            do {
                var login = HTTPClientRequest(url: base + "/api/v1/auth/token")
                login.method = .POST
                login.headers.add(name: "Content-Type", value: "application/json")
                login.body = .bytes(ByteBuffer(string: #"{"username":"ada","password":"secret-ada"}"#))
                let answer = try await client.execute(login, timeout: .seconds(60))
                #expect(answer.status == .ok && answer.version.major == expected, "\(answer.status) \(answer.version)")
                let body = try await answer.body.collect(upTo: 1 << 16)
                let object = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
                let token = try #require(object?["accessToken"] as? String)

                var verify = HTTPClientRequest(url: base + "/api/v1/auth/verify")
                verify.headers.add(name: "Authorization", value: "Bearer \(token)")
                let verified = try await client.execute(verify, timeout: .seconds(60))
                #expect(verified.status == .ok && verified.version.major == expected)
                let text = String(buffer: try await verified.body.collect(upTo: 1 << 16))
                #expect(text.contains(#""username":"ada""#), "\(text)")
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
        // Plain HTTP on the TLS port gets no HTTP answer.
        let connection = try RawConnection(port: server.base.port!)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(!(try await connection.readUntilClosed().hasPrefix("HTTP/1.1 200")))
    }

    /// A client that leaves a live stream — closing its TLS connection over HTTP/1.1, resetting its stream over
    /// HTTP/2 — ends it at once: with keep-alives ten minutes apart, no write would tell the server before then.
    @Test(arguments: [(HTTPClient.Configuration.HTTPVersion.automatic, 2), (.http1Only, 1)])
    func aLiveStreamEndsWhenItsClientLeaves(_ version: HTTPClient.Configuration.HTTPVersion, _ major: Int)
        async throws
    {
        let files = try Files(keyMode: 0o600)
        defer { files.directory.remove() }
        let server = try await ServerProcess(extraArguments: files.arguments + ["--stream-keep-alive", "600"])
        let base = server.base.absoluteString
        let watcher = try client(trusting: files, version: .http1Only)
        do {
            /// `muster_sse_connections` of `/metrics`; -1 without that line.
            func openStreams() async throws -> Int {
                let answer = try await watcher.execute(HTTPClientRequest(url: base + "/metrics"), timeout: .seconds(30))
                let text = String(buffer: try await answer.body.collect(upTo: 1 << 20))
                let line = text.split(separator: "\n").first { $0.hasPrefix("muster_sse_connections ") }
                return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? -1
            }
            var login = HTTPClientRequest(url: base + "/api/v1/auth/token")
            login.method = .POST
            login.headers.add(name: "Content-Type", value: "application/json")
            login.body = .bytes(ByteBuffer(string: #"{"username":"ada","password":"secret-ada"}"#))
            let tokens = try await watcher.execute(login, timeout: .seconds(60)).body.collect(upTo: 1 << 16)
            let object = try JSONSerialization.jsonObject(with: Data(buffer: tokens)) as? [String: Any]
            let token = try #require(object?["accessToken"] as? String)

            let client = try client(trusting: files, version: version)
            do {
                var inbox = HTTPClientRequest(url: base + "/api/v1/inbox")
                inbox.headers.add(name: "Authorization", value: "Bearer \(token)")
                inbox.headers.add(name: "Accept", value: "text/event-stream")
                let stream = try await client.execute(inbox, timeout: .seconds(60))
                #expect(stream.status == .ok && stream.version.major == major, "\(stream.status) \(stream.version)")
                // Read through an iterator kept until the client leaves: one dropped cancels the request.
                var body = stream.body.makeAsyncIterator()
                var received = ""
                while !received.contains(": stream open"), let part = try await body.next() {
                    received += String(buffer: part)
                }
                #expect(received.contains(": stream open"))
                #expect(try await openStreams() == 1)
                try await client.shutdown()  // leaves: the connection (and its stream) closes
                withExtendedLifetime(body) {}
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await eventually("the stream to end after its client left over HTTP/\(major)") {
                try await openStreams() == 0
            }
        } catch {
            try? await watcher.shutdown()
            throw error
        }
        try await watcher.shutdown()
    }

    @Test func aKeyOthersCanReadIsRefusedNamingIt() async throws {
        let files = try Files(keyMode: 0o644)
        defer { files.directory.remove() }
        let data = try TemporaryDirectory("tls-data")
        defer { data.remove() }
        let outcome = try await MusterProcess.run(
            ["serve", "--port", "0", "--data", data.url.path] + files.arguments, timeout: 120)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("--tls-key \(files.keyFile)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("chmod 600"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("PRIVATE KEY"), "\(outcome.stderr)")
    }

    @Test func aKeyThatIsNotTheCertificatesOrOnlyOneFileIsRefused() async throws {
        let files = try Files(keyMode: 0o600)
        let other = try Files(keyMode: 0o600)
        defer {
            files.directory.remove()
            other.directory.remove()
        }
        let data = try TemporaryDirectory("tls-data")
        defer { data.remove() }
        let serve = ["serve", "--port", "0", "--data", data.url.path]
        let mismatched = try await MusterProcess.run(
            serve + ["--tls-cert", files.certificateFile, "--tls-key", other.keyFile], timeout: 120)
        #expect(mismatched.status != 0)
        #expect(mismatched.stderr.contains("is not the key of the certificate in"), "\(mismatched.stderr)")
        let alone = try await MusterProcess.run(serve + ["--tls-cert", files.certificateFile], timeout: 120)
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("--tls-cert and --tls-key go together"), "\(alone.stderr)")
    }
}
