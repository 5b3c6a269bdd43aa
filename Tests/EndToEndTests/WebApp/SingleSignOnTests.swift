import Foundation
import Testing

extension WebAppBrowserTests {
    /// `serve --auth oauth`: people sign in from the web app at their organisation's OpenID Connect issuer
    /// (authorization code with PKCE), and the issuer's ID token is what the API then takes.
    @Suite(.serialized) struct SingleSignOnTests {
        /// A stage whose server takes `issuer`'s tokens for the client id `muster-web`; the app open on its login.
        func stage(_ issuer: SignInIssuer) async throws -> WebAppStage {
            let stage = try await WebAppStage.start(serveArguments: [
                "--no-push", "--map-tiles", "", "--auth", "oauth", "--oidc-issuer", issuer.issuer,
                "--oidc-audience", "muster-web", "--jwks", "\(issuer.issuer)/jwks",
            ])
            try await stage.driver.open(stage.server.base)
            return stage
        }

        /// Runs `body` with an issuer and a stage; a failure leaves a screenshot named `name-failure`.
        func withIssuer(_ name: String, _ body: (SignInIssuer, WebAppStage) async throws -> Void) async throws {
            let issuer = try await SignInIssuer.start()
            defer { issuer.stop() }
            let stage = try await stage(issuer)
            do {
                try await body(issuer, stage)
            } catch {
                try? await stage.browser.screenshot("\(name)-failure")
                await stage.stop()
                throw error
            }
            await stage.stop()
        }

        /// Signs in at the issuer's page as `subject`.
        func signIn(_ stage: WebAppStage, as subject: String) async throws {
            try await stage.driver.click(try await stage.driver.find("#sign-in"))
            try await stage.driver.type(subject, into: try await stage.driver.find("#subject"))
            try await stage.driver.click(try await stage.driver.find("#approve"))
        }

        @Test func aPersonSignsInAtTheIssuerAndTheirInboxUpdatesLive() async throws {
            try await withIssuer("sso-signed-in") { issuer, stage in
                #expect(try await stage.driver.findAll("#password").isEmpty, "no password form: the issuer signs in")
                try await stage.browser.screenshot("sso-login")
                try await signIn(stage, as: "joe")
                _ = try await stage.driver.find("ul.inbox")
                #expect(try await stage.driver.run("return location.search") as? String == "", "the code is gone")
                let id = try await stage.send(
                    to: "joe", title: "Signed in", payload: #"{"responseTopic":"/sso","fields":[]}"#)
                try await stage.driver.wait(
                    for: "the message in the inbox",
                    until: "return document.querySelector('li.message[data-message-id=\"\(id)\"]') !== null")
                #expect(
                    try await stage.driver.run("return document.querySelector('header .who .name').textContent")
                        as? String == "joe")
                #expect(issuer.refusals.withLock { $0 }.isEmpty)
                try await stage.browser.screenshot("sso-inbox")
            }
        }

        @Test func aSignInTheIssuerRefusedIsExplainedOnTheLoginPage() async throws {
            try await withIssuer("sso-refused") { _, stage in
                try await signIn(stage, as: "")
                let error = try await stage.driver.find("main p.error")
                #expect(try await stage.driver.text(of: error).contains("nobody signed in"))
                _ = try await stage.driver.find("#sign-in")  // people can try again
            }
        }

        @Test func someoneTheIssuerKnowsButMusterDoesNotIsToldWhatToDo() async throws {
            try await withIssuer("sso-unknown-user") { _, stage in
                try await signIn(stage, as: "stranger")
                let error = try await stage.driver.find("main p.error")
                let text = try await stage.driver.text(of: error)
                #expect(text.contains("not a user"), "\(text)")
                #expect(text.contains("muster users add"), "\(text)")
            }
        }
    }
}
