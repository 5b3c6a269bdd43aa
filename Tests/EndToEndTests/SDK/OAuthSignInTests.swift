import EventLogTesting
import Foundation
import MusterClient
import Synchronization
import Testing

/// `authWithOAuth(urlScheme:clientId:browser:)` against a real `muster serve --auth oauth` and a stand-in OpenID
/// Connect issuer: the authorization code flow with PKCE, the ID token as the bearer, and its refresh at the issuer.
@Suite(.serialized) struct OAuthSignInTests {
    /// A server taking `issuer`'s ID tokens for the client id `muster-app`, with the user joe.
    static func server(_ issuer: SignInIssuer) async throws -> ServerProcess {
        let server = try await ServerProcess(extraArguments: [
            "--no-push", "--auth", "oauth", "--oidc-issuer", issuer.issuer, "--oidc-audience", "muster-app",
            "--jwks", "\(issuer.issuer)/jwks",
        ])
        let joe = try await server.run(
            ["users", "add", "joe", "--password-stdin"] + server.data, stdin: "unused-password\n")
        try #require(joe.status == 0, "\(joe)")
        return server
    }

    /// A clock the test moves.
    final class TestClock: Sendable {
        private let time = Mutex(Date())
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    @Test func aPersonSignsInAtTheIssuerAndTheIDTokenIsTheBearer() async throws {
        let issuer = try await SignInIssuer.start(refreshTokens: true)
        defer { issuer.stop() }
        let server = try await Self.server(issuer)
        let folder = try TemporaryDirectory("oauth-tokens")
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("tokens.json"))
        let client = MusterClient(serverURL: server.base, tokenStore: store)
        let browser = IssuerBrowser(subject: "joe")

        let session = await client.authWithOAuth(
            urlScheme: "com.example.muster", clientId: "muster-app", browser: browser)

        #expect(session.authValid, "\(session.errorStr)")
        #expect(session.errorStr == "")
        #expect(session.serverType == .oauth)
        #expect(session.username == "joe")
        let tokens = try #require(client.tokens)
        #expect(tokens.accessToken.split(separator: ".").count == 3, "the ID token (a JWT) is the bearer")
        #expect(tokens.refreshToken != nil)
        #expect(tokens.tokenEndpoint?.absoluteString == "\(issuer.issuer)/token")
        #expect(try store.load()?.accessToken == tokens.accessToken, "the login is saved")
        let opened = try #require(browser.opened.withLock { $0 }.first)
        let query = Dictionary(
            (URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                ($0.name, $0.value ?? "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(query["redirect_uri"] == "com.example.muster:/oauth/callback")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"]?.count == 43, "BASE64URL(SHA256(verifier)) is 43 characters")
        #expect(query["code_verifier"] == nil, "the verifier stays with the client until the code is traded")
        #expect(query["client_id"] == "muster-app")
        #expect(issuer.refusals.withLock { $0 }.isEmpty)
        #expect(try await client.inbox().isEmpty, "a data operation goes through with the ID token")
        #expect(await client.verifyAuthToken().authValid)
    }

    @Test func anExpiringIDTokenIsRefreshedAtTheIssuerByEnsureValidToken() async throws {
        let issuer = try await SignInIssuer.start(refreshTokens: true)
        defer { issuer.stop() }
        let server = try await Self.server(issuer)
        let clock = TestClock()
        let client = MusterClient(serverURL: server.base, now: { clock.now })
        let signedIn = await client.authWithOAuth(
            urlScheme: "com.example.muster", clientId: "muster-app", browser: IssuerBrowser(subject: "joe"))
        try #require(signedIn.authValid, "\(signedIn.errorStr)")
        let first = try #require(client.tokens)

        let fresh = await client.ensureValidToken()
        #expect(fresh.authValid)
        #expect(client.tokens?.accessToken == first.accessToken, "a fresh token is not refreshed")
        #expect(issuer.refreshes.withLock { $0 } == 0)

        clock.advance(590)  // the ID token lives 600 s; it is refreshed within 30 s of its expiry
        let renewed = await client.ensureValidToken()
        #expect(renewed.authValid, "\(renewed.errorStr)")
        #expect(renewed.username == "joe")
        #expect(issuer.refreshes.withLock { $0 } == 1)
        let second = try #require(client.tokens)
        #expect(second.accessToken != first.accessToken)
        #expect(second.refreshToken != first.refreshToken, "the issuer rotates refresh tokens")
        #expect(await client.verifyAuthToken().authValid, "the server takes the renewed ID token")
        #expect(issuer.refusals.withLock { $0 }.isEmpty)
    }

    @Test func withoutARefreshTokenAnExpiredIDTokenMeansSigningInAgain() async throws {
        let issuer = try await SignInIssuer.start()
        defer { issuer.stop() }
        let server = try await Self.server(issuer)
        let clock = TestClock()
        let client = MusterClient(serverURL: server.base, now: { clock.now })
        let signedIn = await client.authWithOAuth(
            urlScheme: "com.example.muster", clientId: "muster-app", browser: IssuerBrowser(subject: "joe"))
        try #require(signedIn.authValid, "\(signedIn.errorStr)")
        #expect(client.tokens?.refreshToken == nil)

        clock.advance(900)
        let expired = await client.ensureValidToken()
        #expect(!expired.authValid)
        #expect(expired.serverType == .oauth, "the app learns which way to log in again")
        #expect(expired.error?.code == .loginRequired)
    }

    @Test func aSignInTheIssuerRefusedSaysWhyAndKeepsNoLogin() async throws {
        let issuer = try await SignInIssuer.start()
        defer { issuer.stop() }
        let server = try await Self.server(issuer)
        let client = MusterClient(serverURL: server.base)
        let session = await client.authWithOAuth(
            urlScheme: "com.example.muster", clientId: "muster-app", browser: IssuerBrowser(subject: ""))
        #expect(!session.authValid)
        #expect(session.errorStr.contains("nobody signed in"), "\(session.errorStr)")
        #expect(session.error?.code.rawValue == "access_denied")
        #expect(client.tokens == nil)
    }

    @Test func someoneTheIssuerKnowsButTheServerDoesNotIsNotLoggedIn() async throws {
        let issuer = try await SignInIssuer.start()
        defer { issuer.stop() }
        let server = try await Self.server(issuer)
        let client = MusterClient(serverURL: server.base)
        let session = await client.authWithOAuth(
            urlScheme: "com.example.muster", clientId: "muster-app", browser: IssuerBrowser(subject: "stranger"))
        #expect(!session.authValid)
        #expect(!session.errorStr.isEmpty)
        #expect(client.tokens == nil, "a token the server refused is forgotten")
    }

    @Test func anIDTokenForAnotherClientIdIsRefusedByTheServer() async throws {
        let issuer = try await SignInIssuer.start()
        defer { issuer.stop() }
        let server = try await Self.server(issuer)
        let client = MusterClient(serverURL: server.base)
        let session = await client.authWithOAuth(
            urlScheme: "com.example.muster", clientId: "another-app", browser: IssuerBrowser(subject: "joe"))
        #expect(!session.authValid, "the server checks the ID token's audience")
        #expect(client.tokens == nil)
    }

    @Test func aServerWithItsOwnLoginsSaysThereIsNoIssuer() async throws {
        let server = try await ServerProcess()
        let client = MusterClient(serverURL: server.base)
        let browser = IssuerBrowser(subject: "joe")
        let session = await client.authWithOAuth(urlScheme: "com.example.muster", clientId: "app", browser: browser)
        #expect(!session.authValid)
        #expect(session.error?.code == .signInUnavailable)
        #expect(session.errorStr.contains("--auth oauth"), "\(session.errorStr)")
        #expect(browser.opened.withLock { $0 }.isEmpty, "no sign-in page is shown")
    }
}
