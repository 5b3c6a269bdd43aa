import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// A W3C WebDriver session with chromedriver: the commands the web app's tests use, each one HTTP request to the
/// driver on loopback. Failures carry the driver's own error text.
public struct WebDriver: Sendable {
    public let base: URL
    public let session: String

    /// One element of the page, as the driver names it.
    public struct Element: Sendable {
        public let id: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    public static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// Sends one command; the answer's `value`. (async-http-client: chromedriver writes headers without a space after
    /// the colon, which URLSession on Linux refuses.)
    @discardableResult
    public static func command(_ method: String, _ url: URL, _ body: [String: Any]? = nil) async throws -> Any {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let data = Data(buffer: try await response.body.collect(upTo: 64 << 20))
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let value = object["value"] ?? NSNull()
        if response.status.code >= 400 {
            let status = response.status.code
            let error = value as? [String: Any]
            throw Failure(
                description: "WebDriver \(method) \(url.path): \(error?["error"] ?? status): "
                    + "\(String(describing: error?["message"] ?? "").prefix(600))")
        }
        return value
    }

    @discardableResult
    public func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any {
        try await Self.command(method, base.appendingPathComponent("session/\(session)/\(path)"), body)
    }

    public func open(_ url: URL) async throws { try await command("POST", "url", ["url": url.absoluteString]) }

    /// The first element matching the CSS `selector`, waiting up to the session's implicit wait for one.
    public func find(_ selector: String) async throws -> Element {
        let value = try await command("POST", "element", ["using": "css selector", "value": selector])
        guard let id = (value as? [String: Any])?[Self.elementKey] as? String else {
            throw Failure(description: "no element \(selector)")
        }
        return Element(id: id)
    }

    /// Every element matching `selector` now (none is not an error).
    public func findAll(_ selector: String) async throws -> [Element] {
        let value = try await command("POST", "elements", ["using": "css selector", "value": selector])
        return (value as? [[String: Any]] ?? []).compactMap { ($0[Self.elementKey] as? String).map(Element.init) }
    }

    public func click(_ element: Element) async throws { try await command("POST", "element/\(element.id)/click", [:]) }

    public func type(_ text: String, into element: Element) async throws {
        try await command("POST", "element/\(element.id)/value", ["text": text])
    }

    public func clear(_ element: Element) async throws { try await command("POST", "element/\(element.id)/clear", [:]) }

    public func text(of element: Element) async throws -> String {
        try await command("GET", "element/\(element.id)/text") as? String ?? ""
    }

    /// Runs `script` (a function body; `arguments` holds `arguments`) in the page and returns its result.
    @discardableResult
    public func run(_ script: String, _ arguments: [Any] = []) async throws -> Any {
        try await command("POST", "execute/sync", ["script": script, "args": arguments])
    }

    /// Runs `script` whose last argument is a callback it calls with its result (for promises).
    @discardableResult
    public func runAsync(_ script: String, _ arguments: [Any] = []) async throws -> Any {
        try await command("POST", "execute/async", ["script": script, "args": arguments])
    }

    /// Waits until `script` returns true in the page, checking every 50 ms for at most `seconds`.
    public func wait(
        for what: String, seconds: Double = 15, until script: String, _ arguments: [Any] = []
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while try await run(script, arguments) as? Bool != true {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "waited \(seconds) s for \(what)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The page as a PNG.
    public func screenshot() async throws -> Data {
        let base64 = try await command("GET", "screenshot") as? String ?? ""
        return Data(base64Encoded: base64) ?? Data()
    }

    /// Cuts the browser off the network (`offline: true`) or lets it back on, as DevTools' network emulation does.
    public func setOffline(_ offline: Bool) async throws {
        try await command(
            "POST", "goog/cdp/execute",
            [
                "cmd": "Network.emulateNetworkConditions",
                "params": [
                    "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
                ] as [String: Any],
            ])
    }
}
