import AsyncHTTPClient
import BrowserTesting
import EventLog
import EventLogTesting
import Foundation
import Muster
import NIOCore

/// `web-inbox`: the time from a send until the message is visible in an inbox open in headless Chromium (p50/p99
/// over 100 sends; 20 with --smoke), against the same sends read by a plain client on the inbox's live stream in
/// the same run (the baseline: the server's part alone). Also the bytes a first visit downloads, over the wire.
struct WebInbox: Scenario {
    let name = "web-inbox"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let sends = settings.smoke ? 20 : 100
        let directory = try TemporaryDirectory("bench-web")
        defer { settings.discard(directory) }
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }
        try await Directory(log: log).addUser("joe", password: "bench-password")
        let token = try await Sessions(log: log).login(username: "joe", password: "bench-password").accessToken

        let (browserLatencies, streamLatencies, firstVisit) = try await withLoopbackServer(log: log, label: name) {
            base in
            let firstVisit = try await Self.firstVisitBytes(base)
            let browser = try await Browser()
            do {
                let result = try await Self.measure(sends, base: base, token: token, log: log, browser: browser)
                await browser.close()
                return (result.0, result.1, firstVisit)
            } catch {
                await browser.close()
                throw error
            }
        }
        var inBrowser = browserLatencies
        var onStream = streamLatencies
        for (label, fraction) in [("p50", 0.5), ("p99", 0.99)] {
            let browser = inBrowser.percentile(fraction)
            let stream = onStream.percentile(fraction)
            report.comparisons.append(
                Comparison(
                    "send → visible in the inbox, \(label) of \(sends)",
                    figure: Figure(label: "Chromium inbox", value: browser, unit: "ms"),
                    baseline: Figure(label: "plain live-stream client", value: stream, unit: "ms"),
                    status: "lower is better; the ratio is the browser's part"))
        }
        report.context.append(Figure(label: "first visit, compressed", value: Double(firstVisit) / 1024, unit: "KiB"))
        report.notes.append(
            String(
                format: "first visit %.1f KiB compressed (target under 150 KiB before the map)",
                Double(firstVisit) / 1024))
    }

    /// Sends one message at a time and waits until both the page and the plain stream client have it.
    private static func measure(
        _ sends: Int, base: String, token: String, log: EventLog, browser: Browser
    ) async throws -> (Latencies, Latencies) {
        let driver = browser.webDriver
        try await driver.open(URL(string: base)!)
        try await driver.type("joe", into: try await driver.find("#username"))
        try await driver.type("bench-password", into: try await driver.find("#password"))
        try await driver.click(try await driver.find("#log-in"))
        _ = try await driver.find("ul.inbox")
        // The page notes when each message's row appears, by the page's wall clock.
        try await driver.run(
            """
            window.benchSeen = {};
            new MutationObserver(() => {
              for (const row of document.querySelectorAll("li.message[data-message-id]"))
                window.benchSeen[row.dataset.messageId] ??= Date.now();
            }).observe(document.body, { childList: true, subtree: true });
            """)
        let stream = try await InboxStreamClient.open(base: base, token: token)
        defer { stream.close() }

        let notifications = Notifications(log: log)
        let payload = Data(
            #"{"responseTopic":"/bench/web","fields":[{"id":"ok","type":"checkbox","label":"Seen?"}]}"#.utf8)
        var inBrowser = Latencies()
        var onStream = Latencies()
        for n in 0..<sends {
            let sentAt = Date().timeIntervalSince1970 * 1000
            let sent = try await notifications.send(
                to: ["joe"], title: "Bench \(n)", body: "Open me", payload: payload, actor: "bench")
            let id = sent.messageIds[0].uuidString.lowercased()
            try await driver.wait(
                for: "message \(n) in the inbox", seconds: 30,
                until: "return window.benchSeen[arguments[0]] !== undefined", [id])
            let seenAt = try await driver.run("return window.benchSeen[arguments[0]]", [id]) as? Double ?? .nan
            let streamAt = try await stream.arrival(of: id)
            inBrowser.record(.microseconds(Int64((seenAt - sentAt) * 1000)))
            onStream.record(.microseconds(Int64((streamAt - sentAt) * 1000)))
        }
        return (inBrowser, onStream)
    }

    /// The compressed bytes of the page and every file its service worker keeps, as a first visit fetches them: the
    /// `Content-Length` the server sends (the shared client inflates gzip bodies before handing them over).
    private static func firstVisitBytes(_ base: String) async throws -> Int {
        func fetch(_ path: String) async throws -> (sent: Int, body: ByteBuffer) {
            var request = HTTPClientRequest(url: base + path)
            request.headers.add(name: "Accept-Encoding", value: "gzip")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 << 20)
            let sent = response.headers.first(name: "Content-Length").flatMap(Int.init) ?? body.readableBytes
            return (sent, body)
        }
        let worker = try await fetch("/sw.js")
        let files = String(buffer: worker.body).matches(of: /"(\/app\/[0-9a-f]+\/[^"]+)"/).map { String($0.output.1) }
        var total = try await fetch("/").sent + worker.sent
        for file in files { total += try await fetch(file).sent }
        return total
    }
}

/// A plain client of `GET /api/v1/inbox` as a live stream: notes when each message id arrives.
final class InboxStreamClient: @unchecked Sendable {
    private let lock = NSLock()
    private var arrivals: [String: Double] = [:]
    private var reading: Task<Void, Never>?

    static func open(base: String, token: String) async throws -> InboxStreamClient {
        let client = InboxStreamClient()
        var request = HTTPClientRequest(url: base + "/api/v1/inbox")
        request.headers.add(name: "Accept", value: "text/event-stream")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .hours(1))
        client.reading = Task {
            var text = ""
            do {
                for try await chunk in response.body {
                    let at = Date().timeIntervalSince1970 * 1000
                    text += String(buffer: chunk)
                    for match in text.matches(of: /"messageId":"([0-9a-f-]+)"/) {
                        let id = String(match.output.1)
                        client.lock.withLock { if client.arrivals[id] == nil { client.arrivals[id] = at } }
                    }
                    if let end = text.lastIndex(of: "\n") { text = String(text[text.index(after: end)...]) }
                }
            } catch {
                // Closed by close().
            }
        }
        return client
    }

    /// When `id` arrived on the stream (wall clock, ms), waiting up to 30 s for it.
    func arrival(of id: String) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let at = lock.withLock({ arrivals[id] }) { return at }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw BenchError.command("message \(id) never came on the inbox stream")
    }

    func close() { reading?.cancel() }
}
