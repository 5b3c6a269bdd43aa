import Foundation
import Testing

@testable import MusterClient

/// The client's half of the authorization code flow with PKCE, without an issuer: the proof key, the issuer's
/// redirect, the token request's form.
@Suite struct OAuthProofKeyTests {
    @Test func theChallengeIsTheBase64urlSHA256OfTheVerifierAsInRFC7636() {
        // RFC 7636, appendix B.
        let proof = ProofKey(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", state: "s")
        #expect(proof.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func freshSecretsAreRandomAndURLSafe() {
        let first = ProofKey()
        let second = ProofKey()
        #expect(first.verifier != second.verifier)
        #expect(first.state != second.state)
        #expect(first.verifier.count == 43, "256 bits of base64url without padding")
        #expect((43...128).contains(first.verifier.count), "RFC 7636's verifier length")
        let urlSafe = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(first.verifier.unicodeScalars.allSatisfy(urlSafe.contains))
        #expect(first.challenge.unicodeScalars.allSatisfy(urlSafe.contains))
    }

    @Test func theCodeIsTakenFromARedirectForThisRequest() throws {
        let callback = URL(string: "com.example.muster:/oauth/callback?code=c-1&state=s-1")!
        #expect(try MusterClient.authorizationCode(in: callback, state: "s-1") == "c-1")
    }

    @Test func aRedirectForAnotherRequestIsRefused() {
        let callback = URL(string: "com.example.muster:/oauth/callback?code=c-1&state=other")!
        let error = #expect(throws: MusterClientError.self) {
            _ = try MusterClient.authorizationCode(in: callback, state: "s-1")
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("state does not match") == true)
    }

    @Test func theIssuersRefusalKeepsItsCodeAndWords() {
        let callback = URL(
            string: "com.example.muster:/oauth/callback?error=access_denied&error_description=nobody%20signed%20in")!
        let error = #expect(throws: MusterClientError.self) {
            _ = try MusterClient.authorizationCode(in: callback, state: "s-1")
        }
        #expect(error?.code.rawValue == "access_denied")
        #expect(error?.message == "the issuer refused the sign-in: nobody signed in")
    }

    @Test func aRedirectWithNeitherCodeNorErrorIsRefused() {
        let callback = URL(string: "com.example.muster:/oauth/callback?state=s-1")!
        #expect(throws: MusterClientError.self) {
            _ = try MusterClient.authorizationCode(in: callback, state: "s-1")
        }
    }

    @Test func formValuesKeepOnlyUnreservedCharacters() {
        #expect(MusterClient.formEncode("a b+c/d:e=f&g~h") == "a%20b%2Bc%2Fd%3Ae%3Df%26g~h")
    }

    @Test func anAppsRedirectIsItsSchemeWithAPath() {
        struct Browser: OAuthBrowser {
            func signIn(at authorizationURL: URL, redirectURI: URL) async throws -> URL { redirectURI }
        }
        #expect(
            Browser().redirectURI(urlScheme: "com.example.muster").absoluteString
                == "com.example.muster:/oauth/callback")
    }
}
