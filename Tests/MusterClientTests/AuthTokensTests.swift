import Foundation
import Testing

@testable import MusterClient

/// A JWT with `claims` as its payload; the header and signature are placeholders the client never checks.
func jwt(_ claims: String) -> String {
    let payload = Data(claims.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJSUzI1NiJ9.\(payload).c2lnbmF0dXJl"
}

@Suite struct AuthTokensTests {
    @Test func anOAuthJWTGivesItsExpiryAndUser() {
        let tokens = AuthTokens(oauthJWT: jwt(#"{"sub":"anna","preferred_username":"Anna A.","exp":1795280400}"#))
        #expect(tokens.expiresAt == Date(timeIntervalSince1970: 1_795_280_400))
        #expect(tokens.username == "anna")
        #expect(tokens.preferredUsername == "Anna A.")
        #expect(tokens.refreshToken == nil)
        #expect(tokens.serverType == .oauth)
    }

    @Test func base64urlPayloadNeedingPadding() {
        // "ü?" makes base64 with `/`/`+` and padding; base64url drops and swaps them.
        let tokens = AuthTokens(oauthJWT: jwt(#"{"sub":"ü??>","exp":1}"#))
        #expect(tokens.username == "ü??>")
        #expect(tokens.expiresAt == Date(timeIntervalSince1970: 1))
    }

    @Test(arguments: ["opaque-token", "a.b", "a.!!!.c", jwt("[1,2]"), jwt("not json")])
    func aTokenThatIsNotAJWTHasNoExpiry(_ token: String) {
        let tokens = AuthTokens(oauthJWT: token)
        #expect(tokens.accessToken == token)
        #expect(tokens.expiresAt == nil)
        #expect(tokens.username == nil)
    }

    @Test(
        arguments: [
            (100.0, false), (31.0, false), (30.0, true), (1.0, true), (0.0, true), (-5.0, true),
        ] as [(Double, Bool)])
    func expiryWithinTheLeeway(_ secondsLeft: Double, _ expires: Bool) {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let tokens = AuthTokens(accessToken: "a", expiresAt: now.addingTimeInterval(secondsLeft))
        #expect(tokens.expires(within: .seconds(30), of: now) == expires)
    }

    @Test func unknownExpiryNeverExpiresLocally() {
        #expect(!AuthTokens(accessToken: "a").expires(within: .seconds(30), of: .distantFuture))
    }

    @Test func printingLeavesTheTokensOut() {
        let tokens = AuthTokens(
            accessToken: "secret-access", refreshToken: "secret-refresh",
            expiresAt: Date(timeIntervalSince1970: 1_795_280_400), username: "anna")
        for text in [tokens.description, tokens.debugDescription, "\(tokens)", String(reflecting: tokens)] {
            #expect(!text.contains("secret"))
            #expect(text.contains("anna"))
        }
        #expect(tokens.description.contains("2026-11-21T17:00:00.000Z"))
    }
}
