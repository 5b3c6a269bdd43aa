import EventLogTesting
import Foundation
import Synchronization

/// HTTP load of four kinds — sends, responses, location fixes, document uploads — that remembers what each
/// request that got a 2xx should have stored, so the log can be checked against it after any number of kills.
final class TortureLoad: Sendable {
    /// What the server acknowledged, and what it was asked without an answer.
    struct Ledger: Sendable {
        /// Message ids of every acknowledged send.
        var messages: Set<String> = []
        /// Message ids of every acknowledged response.
        var responses: Set<String> = []
        /// Responses that got no 2xx (the server died under them), by message id.
        var unansweredResponses: [String: UnansweredResponse] = [:]
        /// "device/sequence" of every acknowledged location fix; the sequence (its accuracy in thousandths of a
        /// metre) is unique per request.
        var locations: Set<String> = []
        /// Names of every acknowledged upload.
        var documents: Set<String> = []
        /// Responses answered only when tried again with their response id, after the last restart.
        var retried = 0
        /// Requests that failed without an answer (refused connections while the server was down, cut replies).
        var unanswered = 0
        /// Answers that were neither 2xx nor a failure to reach the server: each is a finding.
        var unexpected: [String] = []

        /// A response to try again: who answers, and the response id the first try carried.
        struct UnansweredResponse: Sendable {
            var user: String
            var responseId: String
        }

        var acknowledged: Int { messages.count + responses.count + locations.count + documents.count }
    }

    static let payload =
        #"{"responseTopic":"/torture","fields":[{"type":"inputString","id":"where","label":"Where?"}]}"#
    static let users = ["u1", "u2"]

    private let server: KillableServer
    private let tokens: [String: String]
    private let ledger = Mutex(Ledger())
    private let running = Atomic<Bool>(false)
    private let sequence = Atomic<Int>(0)

    /// Makes the users the load acts as (through the CLI, before the server starts) — call ``prepare(data:)``
    /// first — and logs them in.
    init(server: KillableServer) async throws {
        self.server = server
        var tokens = ["ada": try await server.login("ada", password: "secret-ada")]
        for user in Self.users { tokens[user] = try await server.login(user, password: "secret-\(user)") }
        self.tokens = tokens
    }

    /// Creates the administrator and the users of the load in `data`.
    static func prepare(data: [String]) async throws {
        for user in ["ada"] + users {
            let arguments = ["users", "add", user, "--password-stdin"] + (user == "ada" ? ["--admin"] : []) + data
            let added = try await MusterProcess.run(arguments, stdin: "secret-\(user)\n")
            guard added.status == 0 else { throw MusterProcess.Unexpected("users add \(user): \(added)") }
        }
    }

    var recorded: Ledger { ledger.withLock { $0 } }

    /// Runs the load until ``stop()``: for each user one worker that sends and answers, one that reports
    /// location fixes and one that uploads.
    func run() async {
        running.store(true, ordering: .releasing)
        await withTaskGroup(of: Void.self) { group in
            for user in Self.users {
                group.addTask { await self.loop { try await self.sendAndRespond(as: user) } }
                group.addTask { await self.loop { try await self.reportLocation(as: user) } }
                group.addTask { await self.loop { try await self.upload(as: user) } }
            }
        }
    }

    func stop() { running.store(false, ordering: .releasing) }

    private func loop(_ request: @Sendable () async throws -> Void) async {
        while running.load(ordering: .acquiring) {
            do {
                try await request()
            } catch {
                ledger.withLock { $0.unanswered += 1 }
                // The server is down or restarting: back off a little rather than spin on refused connections.
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    private func next() -> Int { sequence.add(1, ordering: .relaxed).newValue }

    private func unexpected(_ what: String, _ answer: ServerProcess.Answer) {
        ledger.withLock { $0.unexpected.append("\(what): \(answer.status) \(answer.text.prefix(300))") }
    }

    private func sendAndRespond(as user: String) async throws {
        let title = "torture \(next())"
        let sent = try await server.send(
            "POST", "api/v1/notifications", token: tokens["ada"],
            json: #"{"to":["\#(user)"],"title":"\#(title)","body":"B","payload":\#(Self.payload)}"#)
        guard sent.status == 201, let ids = sent.object["messageIds"] as? [String], let id = ids.first else {
            return unexpected("send", sent)
        }
        ledger.withLock { $0.messages.formUnion(ids.map { $0.lowercased() }) }
        let responseId = UUID().uuidString.lowercased()
        ledger.withLock { $0.unansweredResponses[id.lowercased()] = .init(user: user, responseId: responseId) }
        let answered = try await respond(to: id, as: user, responseId: responseId)
        guard answered.status == 201 else { return unexpected("response", answered) }
        ledger.withLock {
            $0.responses.insert(id.lowercased())
            $0.unansweredResponses[id.lowercased()] = nil
        }
    }

    private func respond(to id: String, as user: String, responseId: String) async throws -> ServerProcess.Answer {
        try await server.send(
            "POST", "api/v1/messages/\(id)/response", token: tokens[user],
            json: #"{"deviceId":"\#(user)-phone","values":{"where":"gate"},"responseId":"\#(responseId)"}"#)
    }

    /// Answers again every response the server died under, with the response id it carried: whether or not the
    /// first try was stored, the message must end with exactly one response.
    func retryUnansweredResponses() async throws {
        for (message, retry) in recorded.unansweredResponses {
            let answer = try await respond(to: message, as: retry.user, responseId: retry.responseId)
            guard answer.status == 200 || answer.status == 201 else {
                unexpected("retried response to \(message)", answer)
                continue
            }
            ledger.withLock {
                $0.responses.insert(message)
                $0.unansweredResponses[message] = nil
                $0.retried += 1
            }
        }
    }

    /// Defines the gate the location fixes enter and leave, its rule notifying at most ``maximumEvents`` times,
    /// under a daily limit of ``dailyLimit`` rule notifications.
    func defineGate() async throws {
        let gate = try await server.send(
            "PUT", "api/v1/geofences/gate", token: tokens["ada"],
            json: #"""
                {"lat":52.52,"lng":13.405,"radius":0.05,"rules_actions":[{"id":"hello","rule":{"trigger":"on_entry",
                 "max_events":"\#(Self.maximumEvents)"},"action":{"notify_user":"At the gate"}}]}
                """#)
        guard gate.status == 201 else { throw MusterProcess.Unexpected("PUT the gate: \(gate.text)") }
        let limit = try await server.send(
            "PUT", "api/v1/settings/dailyNotificationLimit", token: tokens["ada"],
            json: #"{"value":"\#(Self.dailyLimit)"}"#)
        guard limit.status == 200 else { throw MusterProcess.Unexpected("PUT the daily limit: \(limit.text)") }
    }

    static let maximumEvents = 3
    static let dailyLimit = 5

    /// A fix alternately at the gate and a kilometre north of it; its accuracy (in thousandths of a metre, unique
    /// per request and well below the 1 km beyond which a fix decides nothing) identifies it in the log.
    private func reportLocation(as user: String) async throws {
        let sequence = next()
        let accuracy = String(format: "%d.%03d", sequence / 1000, sequence % 1000)
        let latitude = sequence % 2 == 0 ? "52.52" : "52.53"
        let answer = try await server.send(
            "POST", "api/v1/locations", token: tokens[user],
            json: #"{"deviceId":"\#(user)-phone","lat":\#(latitude),"lng":13.405,"accuracy":\#(accuracy)}"#)
        guard answer.status == 200 else { return unexpected("location", answer) }
        ledger.withLock { _ = $0.locations.insert("\(user)-phone/\(sequence)") }
    }

    /// Each user's rule notifications today, as `GET /api/v1/quota/USER` counts them.
    func notificationsToday() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for user in Self.users {
            let quota = try await server.send("GET", "api/v1/quota/\(user)", token: tokens["ada"])
            counts[user] = quota.object["notifications"] as? Int ?? -1
        }
        return counts
    }

    private func upload(as user: String) async throws {
        let answer = try await server.send(
            "POST", "api/v1/documents?kind=image", token: tokens[user],
            body: Data(MediaSamples.file("jpeg", size: 2000 + next() % 1000)), contentType: "image/jpeg")
        guard answer.status == 201, let name = answer.object["name"] as? String else {
            return unexpected("upload", answer)
        }
        ledger.withLock { _ = $0.documents.insert(name) }
    }
}
