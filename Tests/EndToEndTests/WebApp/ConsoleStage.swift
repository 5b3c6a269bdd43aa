import Foundation
import Testing

/// The console's stage: `WebAppStage` with a desktop-sized window, and the steps its tests share.
extension WebAppStage {
    static func console(serveArguments: [String] = ["--no-push", "--map-tiles", ""]) async throws -> WebAppStage {
        let server = try await ServerProcess(extraArguments: serveArguments)
        let joe = try await server.run(
            ["users", "add", "joe", "--password-stdin"] + server.data, stdin: "secret-joe\n")
        try #require(joe.status == 0, "\(joe)")
        return WebAppStage(server: server, browser: try await Browser(width: 1280, height: 900))
    }

    /// Goes to a page of the app (`#/console/…`) and waits until `selector` is on it.
    func show(_ hash: String, waitingFor selector: String) async throws {
        try await driver.run("location.hash = arguments[0]", [hash])
        try await driver.wait(
            for: "\(selector) on \(hash)", until: "return document.querySelector(arguments[0]) !== null", [selector])
    }

    /// Waits until an element matching `selector` is on the page.
    func wait(forElement selector: String) async throws {
        try await driver.wait(
            for: selector, until: "return document.querySelector(arguments[0]) !== null", [selector])
    }

    /// Waits until the text of the first element matching `selector` contains `text`.
    func wait(for text: String, in selector: String) async throws {
        try await driver.wait(
            for: "\"\(text)\" in \(selector)",
            until:
                "const e = document.querySelector(arguments[0]); return e !== null && e.textContent.includes(arguments[1])",
            [selector, text])
    }

    /// Runs `body` on a console stage, with a screenshot named `name-failure` when it fails.
    static func withConsole(
        _ name: String, serveArguments: [String] = ["--no-push", "--map-tiles", ""],
        _ body: (WebAppStage) async throws -> Void
    ) async throws {
        let stage = try await console(serveArguments: serveArguments)
        do {
            try await body(stage)
        } catch {
            try? await stage.browser.screenshot("\(name)-failure")
            await stage.stop()
            throw error
        }
        await stage.stop()
    }
}
