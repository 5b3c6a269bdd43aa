import Foundation
import Hummingbird
import JWTKit
import Muster
import MusterHTTP
import Testing

/// `serverType` OAuth: bearer JWTs of an OpenID Connect issuer, checked against its JWKS.
@Suite struct OAuthTests {
    /// An issuer with one ES256 key, as its JWKS publishes it.
    struct Issuer {
        let key = ES256PrivateKey()
        let signer = JWTKeyCollection()
        static let name = "https://id.example.com"

        var jwks: Data {
            let (x, y) = key.parameters!
            return Data(
                #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","alg":"ES256","use":"sig","x":"\#(x)","y":"\#(y)"}]}"#
                    .utf8)
        }

        struct Claims: JWTPayload {
            var iss: IssuerClaim
            var aud: AudienceClaim
            var exp: ExpirationClaim
            var nbf: NotBeforeClaim?
            var sub: SubjectClaim
            var preferred_username: String?
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }

        func token(
            user: String?, subject: String = "sub-123", audience: String = "muster", issuer: String = name,
            expires: Date = Date(timeIntervalSinceNow: 600), notBefore: Date? = nil
        ) async throws -> String {
            await signer.add(ecdsa: key, kid: "k1")
            return try await signer.sign(
                Claims(
                    iss: .init(value: issuer), aud: .init(value: [audience]), exp: .init(value: expires),
                    nbf: notBefore.map { .init(value: $0) }, sub: .init(value: subject), preferred_username: user),
                kid: "k1")
        }
    }

    func server(_ issuer: Issuer) async throws -> APITester {
        try await APITester.make {
            $0.authentication = .oauth(.init(issuer: Issuer.name, audience: "muster", jwks: issuer.jwks))
        }
    }

    @Test func aValidTokenIsTheUserNamedByItsSubjectShowingItsPreferredUsername() async throws {
        let issuer = Issuer()
        let api = try await server(issuer)
        defer { api.remove() }
        let token = try await issuer.token(user: "Joe B.", subject: "joe")
        try await api.run { client in
            #expect(try await client.send(.get, "/api/v1/server").object["serverType"] as? String == "OAuth")
            let verify = try await client.send(.get, "/api/v1/auth/verify", token: token)
            #expect(verify.status == .ok, "\(verify.text)")
            #expect(verify.object["username"] as? String == "joe")
            #expect(verify.object["preferredUsername"] as? String == "Joe B.")
            #expect(verify.object["serverType"] as? String == "OAuth")
            #expect(try await client.send(.get, "/api/v1/inbox", token: token).status == .ok)
            let login = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(login.status == .badRequest)
            #expect(login.errorMessage.contains("OAuth"))
        }
    }

    @Test func tokensOfAnotherIssuerAudienceOrKeyOrExpiredAreRefused() async throws {
        let issuer = Issuer()
        let stranger = Issuer()
        let api = try await server(issuer)
        defer { api.remove() }
        let cases: [(String, String, String)] = [
            (
                try await issuer.token(user: nil, subject: "joe", audience: "someone-else"), "token_unknown",
                "wrong audience"
            ),
            (
                try await issuer.token(user: nil, subject: "joe", issuer: "https://evil.example.com"), "token_unknown",
                "wrong issuer"
            ),
            (try await stranger.token(user: nil, subject: "joe"), "token_unknown", "bad signature"),
            (
                try await issuer.token(user: nil, subject: "joe", expires: Date(timeIntervalSinceNow: -60)),
                "token_expired", "expired"
            ),
            (
                try await issuer.token(user: nil, subject: "joe", notBefore: Date(timeIntervalSinceNow: 600)),
                "token_unknown", "not yet valid"
            ),
            ("not.a.jwt", "token_unknown", "bad signature"),
        ]
        try await api.run { client in
            for (token, code, why) in cases {
                let answer = try await client.send(.get, "/api/v1/auth/verify", token: token)
                #expect(answer.status == .unauthorized, "\(why)")
                #expect(answer.errorCode == code, "\(why)")
                #expect(answer.errorMessage.contains(why), "\(answer.errorMessage)")
                // The library's own words stay in the server's log.
                #expect(!answer.errorMessage.contains("JWT") && !answer.errorMessage.contains("claim"))
            }
        }
    }

    @Test func aValidTokenOfSomeoneNotInTheDirectoryIsForbidden() async throws {
        let issuer = Issuer()
        let api = try await server(issuer)
        defer { api.remove() }
        let token = try await issuer.token(user: "stranger", subject: "sub-123")
        try await api.run { client in
            let answer = try await client.send(.get, "/api/v1/inbox", token: token)
            #expect(answer.status == .forbidden)
            #expect(answer.errorMessage.contains("sub-123"))
        }
    }

    @Test func aPreferredUsernameNamingAnotherUserDoesNotActAsThem() async throws {
        let issuer = Issuer()
        let api = try await server(issuer)
        defer { api.remove() }
        let joeCallingHimselfAda = try await issuer.token(user: "ada", subject: "joe")
        let strangerCallingHimselfAda = try await issuer.token(user: "ada", subject: "someone-else")
        try await api.run { client in
            let verify = try await client.send(.get, "/api/v1/auth/verify", token: joeCallingHimselfAda)
            #expect(verify.object["username"] as? String == "joe")
            let users = try await client.send(.get, "/api/v1/users", token: joeCallingHimselfAda)
            #expect(users.status == .forbidden, "ada is an administrator; joe is not")
            let stranger = try await client.send(.get, "/api/v1/users", token: strangerCallingHimselfAda)
            #expect(stranger.status == .forbidden)
            #expect(stranger.errorMessage.contains("someone-else"))
        }
    }
}
