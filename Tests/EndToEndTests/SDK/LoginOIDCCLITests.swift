import EventLogTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `muster login --oidc`: the issuer's sign-in in a browser, its redirect caught on 127.0.0.1 (RFC 8252), and the
/// login kept in the session file for the domain verbs. The test is the person: it opens the printed address.
@Suite(.serialized) struct LoginOIDCCLITests {
    @Test func aPersonOpensThePrintedAddressSignsInAndTheLoginIsKept() async throws {
        let issuer = try await SignInIssuer.start()
        defer { issuer.stop() }
        let server = try await OAuthSignInTests.server(issuer)
        let folder = try TemporaryDirectory("oidc-login")
        defer { folder.remove() }
        let sessionFile = folder.url.appendingPathComponent("session.json")
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_SESSION"] = sessionFile.path
        environment["MUSTER_DATA"] = nil

        let login = try MusterProcess.Running(
            ["login", "--server", server.base.absoluteString, "--oidc"], environment: environment)
        let prompt = try #require(
            await login.waitForLine { $0.hasPrefix("Open this address in a browser to sign in: ") },
            "no address printed; login \(login.state())")
        let address = try #require(URL(string: String(prompt.split(separator: " ").last ?? "")))
        #expect(address.absoluteString.hasPrefix("\(issuer.issuer)/authorize?"))
        let redirect = try await IssuerBrowser.approve(address, as: "joe")
        #expect(redirect.host == "127.0.0.1" && redirect.path == "/callback", "\(redirect)")
        let (page, response) = try await URLSession.shared.data(from: redirect)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("Signed in"))

        let done = await login.waitForLine { $0.hasPrefix("logged in as ") }
        #expect(done?.hasPrefix("logged in as joe on \(server.base.absoluteString)") == true, "\(login.state())")
        #expect(await login.stop(with: 0) == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: sessionFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the tokens are readable by their owner only")

        let whoami = try await MusterProcess.run(["whoami", "--json"], environment: environment)
        try #require(whoami.status == 0, "\(whoami)")
        let view = try whoami.json()
        #expect(view["username"] as? String == "joe")
        #expect(view["serverType"] as? String == "OAuth")
        #expect(view["authValid"] as? Bool == true)
        #expect(issuer.refusals.withLock { $0 }.isEmpty)
    }

    @Test func aServerWithoutAnIssuerIsExplained() async throws {
        let server = try await ServerProcess()
        let folder = try TemporaryDirectory("oidc-login")
        defer { folder.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_SESSION"] = folder.url.appendingPathComponent("session.json").path
        let login = try await MusterProcess.run(
            ["login", "--server", server.base.absoluteString, "--oidc"], environment: environment)
        #expect(login.status != 0)
        #expect(login.stderr.contains("signs nobody in at an OpenID Connect issuer"), "\(login)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("session.json").path))
    }

    @Test func aUserNameWithOIDCIsRefusedNamingTheArgument() async throws {
        let login = try await MusterProcess.run(["login", "--server", "http://127.0.0.1:9", "--oidc", "joe"])
        #expect(login.status != 0)
        #expect(login.stderr.contains("USER joe: not with --oidc"), "\(login)")
    }
}
