import Foundation
import MusterClient
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loopback redirect of RFC 8252 over a real socket: the browser stand-in of `muster login --oidc`.
@Suite struct LoopbackBrowserTests {
    /// Plays the person's browser: opens `urls` in order; the status of each answer, 0 for none.
    static func visit(_ urls: [URL]) async -> [Int] {
        var statuses: [Int] = []
        for url in urls {
            let response = try? await URLSession.shared.data(from: url).1
            statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
        }
        return statuses
    }

    /// What the browser showed the person.
    final class Shown: Sendable {
        let addresses = Mutex<[URL]>([])
    }

    @Test func theRedirectToCallbackIsCaughtAndOtherRequestsAreNot() async throws {
        let shown = Shown()
        let browser = try LoopbackBrowser { address in shown.addresses.withLock { $0.append(address) } }
        let redirect = browser.redirectURI(urlScheme: "ignored")
        #expect(redirect.absoluteString == "http://127.0.0.1:\(browser.port)/callback")
        let visiting = Task {
            await Self.visit(
                [
                    URL(string: "http://127.0.0.1:\(browser.port)/favicon.ico")!,
                    URL(string: "\(redirect.absoluteString)?code=c-1&state=s-1")!,
                ])
        }
        let authorization = URL(string: "https://issuer.example/authorize?client_id=cli")!
        let back = try await browser.signIn(at: authorization, redirectURI: redirect)
        let statuses = await visiting.value
        #expect(back.absoluteString == "\(redirect.absoluteString)?code=c-1&state=s-1")
        #expect(shown.addresses.withLock { $0 } == [authorization], "the person was shown the authorization URL")
        #expect(statuses == [404, 200])
    }

    @Test func nobodyComingBackEndsTheWaitWithAnError() async throws {
        let browser = try LoopbackBrowser(timeout: .milliseconds(300)) { _ in }
        let redirect = browser.redirectURI(urlScheme: "http")
        let error = await #expect(throws: MusterClientError.self) {
            _ = try await browser.signIn(at: URL(string: "https://issuer.example/authorize")!, redirectURI: redirect)
        }
        #expect(error?.code == .cancelled)
        #expect(error?.message.contains("nobody finished signing in") == true)
    }

    @Test func aBrowserSignsInOnce() async throws {
        let browser = try LoopbackBrowser(timeout: .milliseconds(100)) { _ in }
        let redirect = browser.redirectURI(urlScheme: "http")
        let authorization = URL(string: "https://issuer.example/authorize")!
        _ = try? await browser.signIn(at: authorization, redirectURI: redirect)
        let error = await #expect(throws: MusterClientError.self) {
            _ = try await browser.signIn(at: authorization, redirectURI: redirect)
        }
        #expect(error?.code == .invalidArgument)
    }
}
