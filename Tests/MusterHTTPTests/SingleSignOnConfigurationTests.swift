import Foundation
import Hummingbird
import MusterHTTP
import Testing

/// With `serve --auth oauth` the web app signs people in at the issuer: what its discovery document must say, and
/// what the app is told.
@Suite struct SingleSignOnConfigurationTests {
    let issuer = "https://id.example.com"

    func discovery(_ members: String) -> Data { Data("{\(members)}".utf8) }

    @Test func theAppIsToldTheIssuersEndpointsAndThePageMayConnectToItsTokenEndpoint() async throws {
        let signIn = try SingleSignOn(
            discovery: discovery(
                #""issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","#
                    + #""token_endpoint":"https://tokens.example.com:8443/token""#),
            issuer: issuer, clientId: "muster-web")
        let api = try await APITester.make { $0.webApp.singleSignOn = signIn }
        defer { api.remove() }
        try await api.run { client in
            let config = try await client.send(.get, "/app/config.json")
            let sso = try #require(config.object["singleSignOn"] as? [String: Any])
            #expect(sso["authorizationEndpoint"] as? String == "\(issuer)/authorize")
            #expect(sso["tokenEndpoint"] as? String == "https://tokens.example.com:8443/token")
            #expect(sso["clientId"] as? String == "muster-web")
            #expect(sso["scope"] as? String == "openid profile")
            let page = try await client.send(.get, "/")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("connect-src 'self' https://tokens.example.com:8443;"), "\(policy)")
        }
    }

    @Test func withoutSingleSignOnTheAppShowsItsOwnLoginAndConnectsOnlyHere() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            #expect(try await client.send(.get, "/app/config.json").object["singleSignOn"] == nil)
            let policy = try #require(try await client.send(.get, "/").headers[.contentSecurityPolicy])
            #expect(policy.contains("connect-src 'self';"), "\(policy)")
        }
    }

    @Test(arguments: [
        (
            #""issuer":"https://other.example.com""#,
            "names issuer https://other.example.com, not https://id.example.com"
        ),
        (
            #""issuer":"https://id.example.com","token_endpoint":"https://id.example.com/t""#,
            "authorization_endpoint must be an http(s) URL, not missing"
        ),
        (
            #""issuer":"https://id.example.com","authorization_endpoint":"https://id.example.com/a","token_endpoint":"ftp://x""#,
            "token_endpoint must be an http(s) URL, not ftp://x"
        ),
    ])
    func aDiscoveryDocumentTheAppCannotUseSaysWhichMember(members: String, expected: String) {
        #expect(throws: SingleSignOnError.self) {
            try SingleSignOn(discovery: discovery(members), issuer: issuer, clientId: "c")
        }
        do {
            _ = try SingleSignOn(discovery: discovery(members), issuer: issuer, clientId: "c")
        } catch {
            #expect(error.description == expected)
        }
    }
}
