import EventLogTesting
import Foundation
import Testing

/// Crash torture: `muster serve` under HTTP load — sends, responses, location fixes, uploads — is SIGKILLed at a
/// random moment and restarted, round after round. Afterwards every request that got a 2xx has its events exactly
/// once, positions are contiguous, a response retried with its response id is stored once, and `muster verify`
/// (which compares every projection with a fresh rebuild) is clean.
///
/// `Tools/test` runs a few rounds; `Tools/torture --rounds N` runs the long form (`MUSTER_TORTURE_ROUNDS`).
@Suite(.serialized) struct TortureTests {
    static var rounds: Int {
        ProcessInfo.processInfo.environment["MUSTER_TORTURE_ROUNDS"].flatMap(Int.init) ?? 3
    }

    @Test func everyAcknowledgedRequestIsStoredExactlyOnceAcrossSIGKILLsUnderLoad() async throws {
        let directory = try TemporaryDirectory("torture")
        defer { directory.remove() }
        let data = ["--data", directory.url.path]
        try await TortureLoad.prepare(data: data)
        let server = try await KillableServer(data: directory.url)
        let load = try await TortureLoad(server: server)
        try await load.defineGate()
        var moments: [Int] = []
        for round in 1...Self.rounds {
            let before = load.recorded.acknowledged
            let running = Task { await load.run() }
            try await eventually("round \(round) to have requests acknowledged", seconds: 60) {
                load.recorded.acknowledged > before + 10
            }
            // The random moment of the kill: this sleep chooses when, it waits for nothing.
            let moment = Int.random(in: 0...800)
            moments.append(moment)
            try await Task.sleep(for: .milliseconds(moment))
            try await server.killAndRestart()
            // Load goes on against the restarted server before the round ends.
            let restarted = load.recorded.acknowledged
            try await eventually("round \(round)'s restarted server to acknowledge requests", seconds: 60) {
                load.recorded.acknowledged > restarted + 4
            }
            load.stop()
            await running.value
        }
        try await load.retryUnansweredResponses()
        // Counters never above their maximum: the gate's rule notifies each user at most its max_events times.
        let notified = try await load.notificationsToday()
        #expect(notified.values.contains { $0 > 0 }, "the gate's rule notified: \(notified)")
        #expect(
            notified.values.allSatisfy { $0 >= 0 && $0 <= TortureLoad.maximumEvents },
            "rule notifications per user within max_events \(TortureLoad.maximumEvents): \(notified)")
        #expect(await server.stop() == 0, "\(server.stderr)")

        let ledger = load.recorded
        #expect(ledger.unexpected.isEmpty, "answers neither 2xx nor a lost connection: \(ledger.unexpected.prefix(3))")
        #expect(
            ledger.unansweredResponses.isEmpty,
            "every response retried was answered: \(ledger.unansweredResponses.count) not")
        let stored = try await StoredRequests(data: data)
        #expect(stored.positionsContiguous, "positions 1…\(stored.head) each once")
        Self.expectOnce(ledger.messages, in: stored.messages, "send")
        Self.expectOnce(ledger.responses, in: stored.responses, "response")
        Self.expectOnce(ledger.locations, in: stored.locations, "location fix")
        Self.expectOnce(ledger.documents, in: stored.documents, "upload")
        let doubled = stored.responses.filter { $0.value > 1 }
        #expect(doubled.isEmpty, "messages answered more than once: \(doubled.keys.prefix(5))")

        let verify = try await MusterProcess.run(["verify"] + data)
        #expect(verify.status == 0, "\(verify)")
        print(
            "torture: \(Self.rounds) SIGKILL rounds (moments \(moments) ms after the load warmed), "
                + "\(ledger.acknowledged) requests acknowledged (\(ledger.messages.count) sends, "
                + "\(ledger.responses.count) responses (\(ledger.retried) retried with their id), \(ledger.locations.count) fixes, "
                + "\(ledger.documents.count) uploads), \(ledger.unanswered) unanswered, head \(stored.head), "
                + "acknowledged lost or doubled: \(stored.losses(of: ledger))")
    }

    private static func expectOnce(
        _ acknowledged: Set<String>, in stored: [String: Int], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lost = acknowledged.filter { stored[$0] == nil }
        let doubled = acknowledged.filter { (stored[$0] ?? 0) > 1 }
        #expect(lost.isEmpty, "acknowledged \(what)s lost: \(lost.prefix(5))", sourceLocation: sourceLocation)
        #expect(
            doubled.isEmpty, "acknowledged \(what)s stored twice: \(doubled.prefix(5))", sourceLocation: sourceLocation)
    }
}

/// What the log holds, read with `muster events --json`: how often each request's events occur.
struct StoredRequests {
    var head = 0
    var positionsContiguous = true
    /// Message id → PayloadSent events naming it as a recipient's.
    var messages: [String: Int] = [:]
    /// Message id → ResponseReceived events.
    var responses: [String: Int] = [:]
    /// "device/sequence" (the accuracy in thousandths of a metre) → LocationReported events.
    var locations: [String: Int] = [:]
    /// Document name → DocumentUploaded events.
    var documents: [String: Int] = [:]

    init(data: [String]) async throws {
        let events = try await MusterProcess.run(["events", "--json"] + data)
        guard events.status == 0 else { throw MusterProcess.Unexpected("muster events: \(events)") }
        for (index, event) in try events.jsonLines().enumerated() {
            let position = event["position"] as? Int ?? 0
            if position != index + 1 { positionsContiguous = false }
            head = position
            let body = event["body"] as? [String: Any] ?? [:]
            switch event["type"] as? String {
            case "PayloadSent":
                for recipient in body["recipients"] as? [[String: Any]] ?? [] {
                    if let id = recipient["messageId"] as? String { messages[id.lowercased(), default: 0] += 1 }
                }
            case "ResponseReceived":
                if let id = body["messageId"] as? String { responses[id.lowercased(), default: 0] += 1 }
            case "LocationReported":
                if let device = body["deviceId"] as? String, let accuracy = body["accuracy"] as? NSNumber {
                    locations["\(device)/\(Int((accuracy.doubleValue * 1000).rounded()))", default: 0] += 1
                }
            case "DocumentUploaded":
                if let name = body["name"] as? String { documents[name, default: 0] += 1 }
            default: break
            }
        }
    }

    /// How many acknowledged requests are missing or stored more than once.
    func losses(of ledger: TortureLoad.Ledger) -> Int {
        let pairs = [
            (ledger.messages, messages), (ledger.responses, responses), (ledger.locations, locations),
            (ledger.documents, documents),
        ]
        return pairs.reduce(0) { total, pair in total + pair.0.filter { pair.1[$0] != 1 }.count }
    }
}
