import Foundation
import Testing

extension WebAppBrowserTests {
    /// The web app as `muster serve` sends it: the shell, its files with cache lifetimes, compression and ETags, and
    /// a person logging in and seeing a message arrive without reloading.
    @Suite(.serialized) struct WebAppShellTests {
        @Test func theShellIsProtectedAndItsFilesAreCachedCompressedAndRevalidated() async throws {
            let server = try await ServerProcess(extraArguments: ["--no-push"])
            let shell = try await server.send("GET", "/")
            #expect(shell.status == 200)
            #expect(shell.headers["content-type"] == "text/html; charset=utf-8")
            #expect(shell.headers["cache-control"] == "no-cache")
            let policy = try #require(shell.headers["content-security-policy"])
            #expect(policy.contains("script-src 'self'") && policy.contains("object-src 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(!shell.text.contains("<script>"), "no inline script")

            let range = try #require(
                shell.text.range(of: #"/app/[0-9a-f]{16}/js/app\.js"#, options: .regularExpression))
            let script = String(shell.text[range])
            let file = try await server.send("GET", script, headers: ["Accept-Encoding": "gzip"])
            #expect(file.status == 200)
            #expect(file.headers["cache-control"] == "public, max-age=31536000, immutable")
            #expect(file.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(file.text.contains("import"), "URLSession inflates the gzip body: \(file.text.prefix(80))")
            let etag = try #require(file.headers["etag"])
            let again = try await server.send("GET", script, headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)

            let worker = try await server.send("GET", "/sw.js")
            #expect(worker.text.contains(script), "the service worker keeps every file of this version")
            let manifest = try await server.send("GET", "/manifest.webmanifest")
            #expect(manifest.headers["content-type"] == "application/manifest+json")
            #expect((manifest.object["start_url"] as? String) == "/#/inbox")
            #expect(try await server.send("GET", "/app/0000000000000000/js/nothing.js").status == 404)
            #expect(try await server.send("GET", "/api/v1/nothing").errorCode == "not_found", "the API keeps its 404")
        }

        @Test func aPersonLogsInAndAMessageSentWithTheCLIAppearsWithoutReloading() async throws {
            let stage = try await WebAppStage.start()
            do {
                try await stage.logIn("joe", password: "secret-joe")
                let id = try await stage.send(
                    to: "joe", title: "Fire drill", payload: #"{"responseTopic":"/drill","elements":[]}"#)
                try await stage.driver.wait(
                    for: "the message in the inbox",
                    until:
                        "return document.querySelector('li.message[data-message-id=\"' + arguments[0] + '\"]') !== null",
                    [id])
                let item = try await stage.driver.text(of: try await stage.driver.find("li.message"))
                #expect(item.contains("Fire drill"))
                try await stage.browser.screenshot("inbox")
            } catch {
                try? await stage.browser.screenshot("inbox-failure")
                await stage.stop()
                throw error
            }
            await stage.stop()
        }
    }
}
