import EventLogTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium driven by Debian's chromedriver on loopback, with a fake camera and microphone that need no
/// permission prompt. One browser per test; `close()` ends both processes.
public final class Browser: @unchecked Sendable {
    /// chromedriver, started with `posix_spawn` (not Foundation's `Process`, which on Linux learns of an exit only once
    /// every copy of a socket it hands the child is closed — and a process started meanwhile may hold one).
    let driver: ChildProcess
    /// The browser's profile and the driver's log, removed by `close()`.
    let profile: URL
    public let webDriver: WebDriver
    private let log: URL

    /// Starts chromedriver on a free port and opens a session with a phone-sized window (412 × 915) unless told
    /// otherwise.
    public init(width: Int = 412, height: Int = 915) async throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let port = try LoopbackPort.free()
        log = profile.appendingPathComponent("chromedriver.log")
        driver = try ChildProcess(try Self.executable("chromedriver"), ["--port=\(port)", "--log-path=\(log.path)"])
        let base = URL(string: "http://127.0.0.1:\(port)")!
        try await Self.waitUntilReady(base, driver: driver)
        let options: [String: Any] = [
            "binary": try Self.executable("chromium"),
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                "--window-size=\(width),\(height)", "--user-data-dir=\(profile.path)/profile",
                "--no-first-run", "--lang=en-US",
            ],
        ]
        let created = try await WebDriver.command(
            "POST", base.appendingPathComponent("session"),
            ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]])
        guard let session = (created as? [String: Any])?["sessionId"] as? String else {
            throw WebDriver.Failure(description: "chromedriver made no session: \(created)")
        }
        webDriver = WebDriver(base: base, session: session)
        try await webDriver.command("POST", "timeouts", ["implicit": 10_000, "script": 30_000])
    }

    /// Saves the page as `.build/screenshots/<name>.png` (for Docs/ and for reading a failure).
    public func screenshot(_ name: String) async throws {
        let directory = Self.packageRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await webDriver.screenshot().write(to: directory.appendingPathComponent("\(name).png"))
    }

    public func close() async {
        _ = try? await WebDriver.command(
            "DELETE", webDriver.base.appendingPathComponent("session/\(webDriver.session)"))
        driver.send(SIGKILL)
        await driver.waitForExit()
        try? FileManager.default.removeItem(at: profile)
    }

    deinit {
        if driver.isRunning {
            driver.send(SIGKILL)
            driver.reap()
        }
    }

    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static func executable(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/usr/lib/chromium"] {
            let path = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw WebDriver.Failure(
            description: "\(name) is not installed: run Tools/install-deps (Debian's chromium, chromium-driver)")
    }

    private static func waitUntilReady(_ base: URL, driver: ChildProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            guard driver.isRunning else { throw WebDriver.Failure(description: "chromedriver exited at start") }
            if let status = try? await WebDriver.command("GET", base.appendingPathComponent("status"))
                as? [String: Any],
                status["ready"] as? Bool == true
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw WebDriver.Failure(description: "chromedriver did not become ready within 20 s")
    }
}
