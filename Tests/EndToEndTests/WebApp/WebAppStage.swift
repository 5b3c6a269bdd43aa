// Every browser test of this module uses Browser and WebDriver.
@_exported import BrowserTesting
import Foundation
import Testing

/// A real `muster serve` with the administrator ada and the user joe (password "secret-joe"), and a headless
/// Chromium on its web app: what every browser test starts from.
struct WebAppStage {
    let server: ServerProcess
    let browser: Browser
    var driver: WebDriver { browser.webDriver }

    static func start(serveArguments: [String] = ["--no-push", "--map-tiles", ""]) async throws -> WebAppStage {
        let server = try await ServerProcess(extraArguments: serveArguments)
        let joe = try await server.run(
            ["users", "add", "joe", "--password-stdin"] + server.data, stdin: "secret-joe\n")
        try #require(joe.status == 0, "\(joe)")
        return WebAppStage(server: server, browser: try await Browser())
    }

    /// Opens the app and logs in through its form; returns once the inbox shows.
    func logIn(_ user: String, password: String) async throws {
        try await driver.open(server.base)
        try await driver.type(user, into: try await driver.find("#username"))
        try await driver.type(password, into: try await driver.find("#password"))
        try await driver.click(try await driver.find("#log-in"))
        _ = try await driver.find("ul.inbox")
    }

    /// `muster send` from the CLI on the data directory; the message's id.
    func send(to user: String, title: String, payload: String) async throws -> String {
        let sent = try await server.run(
            ["send", "--to", user, "--title", title, "--body", "From the CLI", "--json", payload] + server.data)
        try #require(sent.status == 0, "\(sent)")
        let ids = try #require(try sent.json()["messageIds"] as? [String])
        return try #require(ids.first)
    }

    /// The browser's console errors are part of a failure's story: ends both processes.
    func stop() async {
        await browser.close()
        _ = await server.stop()
    }
}
