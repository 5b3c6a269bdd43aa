import Foundation
import Testing

@testable import MusterClient

/// Tokens remember the server that issued them, and a client of another server leaves them alone.
@Suite struct TokenServerTests {
    private static let issuer = URL(string: "http://127.0.0.1:8080")!

    private func tokens(server: URL?) -> AuthTokens {
        AuthTokens(
            accessToken: "access-1", refreshToken: "refresh-1", expiresAt: Date(timeIntervalSince1970: 1_795_280_400),
            username: "anna", serverType: .internal, server: server, namespace: "acme")
    }

    @Test(
        arguments: [
            ("http://127.0.0.1:8080", true), ("http://127.0.0.1:8080/", true), ("HTTP://127.0.0.1:8080", true),
            ("http://127.0.0.1:8081", false), ("https://127.0.0.1:8080", false), ("http://localhost:8080", false),
            ("http://127.0.0.1:8080/muster", false),
        ] as [(String, Bool)])
    func tokensBelongToTheServerThatIssuedThem(_ url: String, _ belongs: Bool) {
        #expect(tokens(server: Self.issuer).belong(to: URL(string: url)!) == belongs)
    }

    @Test func tokensOfAnUnknownServerGoAnywhere() {
        #expect(tokens(server: nil).belong(to: URL(string: "https://muster.example.com")!))
    }

    @Test func theServerAndNamespaceAreKeptInTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("session.json"))
        try store.save(tokens(server: Self.issuer))
        let text = String(decoding: try Data(contentsOf: store.url), as: UTF8.self)
        #expect(text.contains(#""server":"http://127.0.0.1:8080""#))
        #expect(text.contains(#""namespace":"acme""#))
        let loaded = try #require(try store.load())
        #expect(loaded.server == Self.issuer)
        #expect(loaded.namespace == "acme")
    }

    @Test func aClientOfAnotherServerDoesNotUseThem() {
        let store = InMemoryTokenStore(tokens(server: Self.issuer))
        let other = MusterClient(serverURL: URL(string: "http://127.0.0.1:9090")!, tokenStore: store)
        #expect(other.tokens == nil)
        #expect(other.session.username == nil)
        // Left where they are, for the client of their own server.
        #expect(store.load()?.accessToken == "access-1")
        let same = MusterClient(serverURL: URL(string: "http://127.0.0.1:8080/")!, tokenStore: store)
        #expect(same.tokens?.accessToken == "access-1")
    }
}
