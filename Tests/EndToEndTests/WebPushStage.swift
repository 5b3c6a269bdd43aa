import Foundation
import PushTesting
import Testing

/// `muster serve` with a Web Push source, and the local Web Push endpoint browsers would be subscribed at, which
/// takes only pushes signed with that source's VAPID key. CLI commands act on the server's data directory.
struct WebPushStage {
    let server: ServerProcess
    let endpoint: WebPushEndpoint
    /// The source's VAPID public key.
    let publicKey: String

    /// A server started with `serveArguments`, its source `browsers` added by `muster push-sources add webpush`.
    static func start(serveArguments: [String] = []) async throws -> WebPushStage {
        let server = try await ServerProcess(extraArguments: serveArguments)
        let added = try await server.run(
            ["push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.org"] + server.data)
        try #require(added.status == 0, "\(added)")
        let details = try #require(try added.json()["details"] as? [String: Any])
        let publicKey = try #require(details["publicKey"] as? String)
        let endpoint = try await WebPushEndpoint.start(expectedKey: publicKey)
        return WebPushStage(server: server, endpoint: endpoint, publicKey: publicKey)
    }

    /// `muster arguments… --data <the server's>`; fails the test unless it exits 0.
    @discardableResult
    func cli(_ arguments: [String], stdin: String = "") async throws -> MusterProcess.Outcome {
        let outcome = try await server.run(arguments + server.data, stdin: stdin)
        try #require(outcome.status == 0, "\(outcome)")
        return outcome
    }

    /// Registers `subscription` as `user`'s browser `device`.
    func register(_ user: String, device: String, _ subscription: WebPushEndpoint.Subscription) async throws {
        try await cli([
            "devices", "register", "--user", user, "--device-id", device, "--device-name", "Firefox",
            "--platform", "web", "--token", subscription.json,
        ])
    }

    /// `muster send --to users` of a one-field form; the message ids, one per user.
    func send(to users: [String], title: String) async throws -> [String] {
        let payload = #"{"responseTopic": "/shifts", "fields": [{"type": "text", "id": "why", "label": "Why?"}]}"#
        let sent = try await cli([
            "send", "--to", users.joined(separator: ","), "--title", title, "--body", "Now", payload,
        ])
        return try #require(try sent.json()["messageIds"] as? [String])
    }

    /// The bodies of the events of `type`, oldest first.
    func events(_ type: String) async throws -> [[String: Any]] {
        try await cli(["events", "--type", type, "--json"]).jsonLines().compactMap { $0["body"] as? [String: Any] }
    }

    /// `muster deliveries --json arguments…`.
    func deliveries(_ arguments: [String] = []) async throws -> [[String: Any]] {
        let listed = try await cli(["deliveries", "--json"] + arguments)
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    }

    func stop() async {
        _ = await server.stop()
        await endpoint.stop()
    }
}

/// Checks `condition` until it holds, for at most `seconds`; then fails naming what it waited for.
func eventually(
    _ what: @autoclosure () -> String, seconds: Double = 20, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            throw MusterProcess.Unexpected("waited \(seconds) s for \(what())")
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}

extension WebPushReceivedPush {
    /// The decrypted push as JSON: `title`, `body` and `muster` (the notice with the message id).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(plaintext))) as? [String: Any] ?? [:]
    }
}
