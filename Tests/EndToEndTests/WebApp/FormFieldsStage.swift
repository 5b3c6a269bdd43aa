import Foundation
import Testing

/// What the form tests do on a ``WebAppStage``: open a message, reach a field by its payload id, drive DevTools
/// (location, time zone), wait for captured media to upload, and read the log through the CLI.
extension WebAppStage {
    /// Runs `body`; on a failure saves `<name>-failure.png` first. Stops the stage either way.
    func running(_ name: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            try? await browser.screenshot("\(name)-failure")
            await stop()
            throw error
        }
        await stop()
    }

    /// Opens the message from the inbox and waits for its form.
    func openMessage(_ id: String) async throws {
        let link = "li.message[data-message-id=\"\(id)\"] a"
        try await driver.wait(
            for: "message \(id) in the inbox", until: "return document.querySelector(arguments[0]) !== null", [link])
        try await driver.click(try await driver.find(link))
        _ = try await driver.find("form.muster-form")
    }

    /// The element matching `selector` inside the box of the field with payload id `id`.
    func field(_ id: String, _ selector: String = "input") async throws -> WebDriver.Element {
        try await driver.find("[data-field-id=\"\(id)\"] \(selector)")
    }

    /// Runs the script in the page for the field box of `id` (its `arguments[0]`).
    func inField(_ id: String, _ script: String) async throws -> Any {
        try await driver.run(
            "const box = document.querySelector('[data-field-id=\"' + arguments[0] + '\"]'); \(script)", [id])
    }

    /// One Chrome DevTools Protocol command on the page.
    @discardableResult
    func devTools(_ command: String, _ parameters: [String: Any] = [:]) async throws -> Any {
        try await driver.command("POST", "goog/cdp/execute", ["cmd": command, "params": parameters])
    }

    /// The browser is at `latitude`, `longitude`, and the app may ask for it without a prompt.
    func place(latitude: Double, longitude: Double) async throws {
        try await devTools(
            "Browser.grantPermissions", ["origin": server.base.absoluteString, "permissions": ["geolocation"]])
        try await devTools(
            "Emulation.setGeolocationOverride", ["latitude": latitude, "longitude": longitude, "accuracy": 5])
    }

    /// Waits until the capture of field `id` is uploaded (its status says `uploaded`).
    func waitForUpload(_ id: String, seconds: Double = 20) async throws {
        try await driver.wait(
            for: "the upload of \(id)", seconds: seconds,
            until: """
                const status = document.querySelector('[data-field-id="' + arguments[0] + '"] .capture-status');
                if (status && status.dataset.state === 'failed') throw new Error(status.textContent);
                return status !== null && status.dataset.state === 'uploaded';
                """, [id])
    }

    /// Takes a picture in the camera dialog the field `id` opened.
    func shoot() async throws {
        try await driver.click(try await driver.find("dialog.camera[open] .actions button:not(.secondary)"))
    }

    /// Draws a stroke across the middle of the field's markup canvas with the mouse.
    func drawStroke(on id: String) async throws {
        let canvas = try await field(id, "canvas.markup")
        let origin = [WebDriver.elementKey: canvas.id]
        let moves: [[String: Any]] = [
            ["type": "pointerMove", "origin": origin, "x": -60, "y": -30],
            ["type": "pointerDown", "button": 0],
            ["type": "pointerMove", "origin": origin, "x": 60, "y": 30, "duration": 150],
            ["type": "pointerUp", "button": 0],
        ]
        try await driver.command(
            "POST", "actions",
            [
                "actions": [
                    ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": moves]
                ]
            ])
    }

    /// The bodies of the log's events of `type`, oldest first (`muster events --json`).
    func events(_ type: String) async throws -> [[String: Any]] {
        let events = try await server.run(["events", "--type", type, "--json"] + server.data)
        try #require(events.status == 0, "\(events)")
        return try events.jsonLines().compactMap { $0["body"] as? [String: Any] }
    }
}
