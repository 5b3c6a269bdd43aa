import EventLogTesting
import Foundation
import PushTesting
import Testing

/// Someone at a terminal logged in to the server with `muster login`: the domain verbs act over HTTP.
private struct Session {
    let file: URL

    @discardableResult
    func run(_ arguments: [String], stdin: String = "") async throws -> MusterProcess.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_DATA"] = nil
        environment["MUSTER_SESSION"] = file.path
        let outcome = try await MusterProcess.run(arguments, stdin: stdin, environment: environment)
        try #require(outcome.status == 0, "\(outcome)")
        return outcome
    }

    static func login(_ server: URL, _ user: String, password: String, in work: TemporaryDirectory) async throws
        -> Session
    {
        let session = Session(file: work.url.appendingPathComponent("\(user)/session.json"))
        try await session.run(
            ["login", "--server", server.absoluteString, user, "--password-stdin"], stdin: password + "\n")
        return session
    }
}

/// Web Push through a running `muster serve`: a form sent with the CLI reaches the browser the user registered,
/// decrypted by the push service with the subscription's keys, and the server's deliveries and audit say so.
@Suite struct PushDeliveryEndToEndTests {
    @Test func aFormSentToAUserReachesTheirBrowserAndTheAuditListsTheAttempt() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("push-e2e")
        defer { work.remove() }
        let ada = try await Session.login(server.base, "ada", password: "secret-ada", in: work)
        let added = try await ada.run(
            ["push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.org"])
        let details = try #require(try added.json()["details"] as? [String: Any])
        let endpoint = try await WebPushEndpoint.start(expectedKey: try #require(details["publicKey"] as? String))
        defer { Task { await endpoint.stop() } }

        try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "secret-joe\n")
        let joe = try await Session.login(server.base, "joe", password: "secret-joe", in: work)
        let browser = endpoint.subscribe()
        try await joe.run([
            "devices", "register", "--device-id", "laptop", "--device-name", "Firefox", "--platform", "web",
            "--token", browser.json,
        ])

        let sent = try await ada.run([
            "send", "--to", "joe", "--title", "Shift swap", "--body", "Can you take Friday?",
            #"{"responseTopic": "/shifts", "fields": [{"type": "text", "id": "why", "label": "Why?"}]}"#,
        ])
        let messageId = try #require((try sent.json()["messageIds"] as? [String])?.first)

        try await eventually("the push to reach the endpoint") { endpoint.receivedCount == 1 }
        let push = try #require(endpoint.received.first)
        #expect(push.subscription == browser.id)
        #expect(push.json["title"] as? String == "Shift swap")
        #expect(push.json["body"] as? String == "Can you take Friday?")
        let notice = try #require(push.json["muster"] as? [String: Any])
        // The notice writes the id as UUID's Codable does (upper case); the same id as `messageIds` gives.
        #expect((notice["messageId"] as? String).flatMap(UUID.init(uuidString:)) == UUID(uuidString: messageId))

        var delivery: [String: Any] = [:]
        try await eventually("the delivery to be recorded delivered") {
            let listed = try await ada.run(["deliveries", "--message", messageId, "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
            delivery = rows?.first ?? [:]
            return rows?.count == 1 && delivery["status"] as? String == "delivered"
        }
        #expect(delivery["user"] as? String == "joe")
        #expect(delivery["deviceId"] as? String == "laptop")
        #expect(delivery["attempts"] as? Int == 1)
        #expect(delivery["providerId"] as? String == push.location)

        let audit = try await ada.run(["audit", "--user", "joe", "--json"]).jsonLines()
        let attempt = try #require(audit.first { $0["what"] as? String == "pushDelivered" }, "\(audit)")
        #expect(attempt["messageId"] as? String == messageId)
        #expect(attempt["deviceId"] as? String == "laptop")
        #expect(attempt["title"] as? String == "Shift swap")
        #expect((attempt["detail"] as? String)?.contains("attempt 1") == true, "\(attempt)")
        let table = try await ada.run(["audit", "--user", "joe"])
        #expect(table.stdout.contains("pushDelivered"), "\(table.stdout)")
        #expect(await server.stop() == 0)
    }
}
