import AsyncHTTPClient
import EventLog
import EventLogTesting
import Foundation
import Muster
import NATSTesting
import NIOCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension ClusterSuites {
    /// The two nodes of `ClusterEndToEndTests.pair()` under many clients writing through both at once: whether the
    /// primary is killed with SIGKILL or the namespace is moved to the replica and back, every write the cluster
    /// acknowledged (answered 201, with `--acknowledge replicated`) is in the log that goes on.
    @Suite(.serialized) struct ClusterUnderLoadTests {
        @Test func everyWriteAnsweredBeforeThePrimaryWasKilledIsInTheSurvivorsLog() async throws {
            let (nats, a, b, ada) = try await ClusterEndToEndTests.pair()
            defer { Task { await nats.stopAll() } }

            let ledger = try await Writers.writing(through: [("a", a), ("b", b)], token: ada) { writers in
                try await writers.wait(until: "200 writes acknowledged") { $0.acknowledged.count >= 200 }
                #expect(await a.stop(with: SIGKILL) == SIGKILL)
                try await writers.wait(
                    until: "b to acknowledge 50 writes itself: \(Self.notable(b))", timeout: .seconds(30)
                ) {
                    $0.answered(by: "b") >= 50
                }
            }
            #expect(await b.stop() == 0, "\(Self.notable(b))")

            let logA = try NodeLog(a)
            let logB = try NodeLog(b)
            Self.expectEachOnce(ledger.acknowledged, in: logB, "b")
            // a's log agrees with b's up to the end of the stream, where b's take-over follows. What a holds past that
            // it had committed but not yet published when it died: none of it was acknowledged.
            let common = logA.commonPrefix(with: logB)
            let unpublished = logA.titles(after: common)
            let acknowledgedUnpublished = ledger.acknowledged.filter { unpublished.contains($0.title) }
            let past =
                "past it a holds \(logA.count - common) events b does not, \(acknowledgedUnpublished.count) acknowledged"
            #expect(
                acknowledgedUnpublished.count == 0,
                "a's log agrees with b's up to \(common); \(past): \(acknowledgedUnpublished.prefix(5))")
            // Taking over, b appends its PrimaryChanged as its first event, then takes writes (Docs/cluster.md).
            let firstOfB = logB.describe(logB.events.dropFirst(common).prefix(3), ledger.acknowledged)
            #expect(
                common > 0 && logB.types.dropFirst(common).first == "PrimaryChanged",
                "b's events after the \(common) it shares with a: \(firstOfB)")
            #expect(logB.types.filter { $0 == "PrimaryChanged" }.count == 2)  // a, then b taking over
            print(
                "cluster under load, SIGKILL: \(ledger.summary); b's log \(logB.count) events, a's \(logA.count), "
                    + "\(logA.count - common) of a's past the \(common) they share")
            await nats.stopAll()
        }

        @Test func aMoveUnderLoadLosesNoAcknowledgedWrite() async throws {
            let (nats, a, b, ada) = try await ClusterEndToEndTests.pair()
            defer { Task { await nats.stopAll() } }

            var movedBack = false
            let ledger = try await Writers.writing(through: [("a", a), ("b", b)], token: ada) { writers in
                try await writers.wait(until: "100 writes acknowledged") { $0.acknowledged.count >= 100 }
                guard try await Self.move(to: "b", nats, a, b) else { return }
                try await writers.wait(until: "b to acknowledge 50 writes", timeout: .seconds(20)) {
                    $0.answered(by: "b") >= 50
                }
                let onA = writers.recorded.answered(by: "a")
                movedBack = try await Self.move(to: "a", nats, a, b)
                guard movedBack else { return }
                try await writers.wait(until: "a to acknowledge 50 writes more", timeout: .seconds(20)) {
                    $0.answered(by: "a") >= onA + 50
                }
            }
            if movedBack { try await Self.lastWrite(through: a, readBackOn: b, token: ada) }
            #expect(await b.stop() == 0, "\(Self.notable(b))")
            #expect(await a.stop() == 0, "\(Self.notable(a))")

            let logA = try NodeLog(a)
            let logB = try NodeLog(b)
            let alike = logA.stored == logB.stored
            #expect(alike, "\(logA.divergence(from: logB, acknowledged: ledger.acknowledged))")
            Self.expectEachOnce(ledger.acknowledged, in: logA, "a")
            Self.expectEachOnce(ledger.acknowledged, in: logB, "b")
            #expect(logA.types.filter { $0 == "PrimaryChanged" }.count == 3)  // a, b (moved), a (moved back)
            // Holding the same events, the two nodes hold the same projections, table by table.
            let tablesA = try await NodeTables.of(a.directory.url)
            let tablesB = try await NodeTables.of(b.directory.url)
            #expect(tablesA.keys.sorted() == tablesB.keys.sorted() && tablesA.count > 10, "\(tablesA.keys.sorted())")
            for name in tablesA.keys.sorted() where tablesA[name] != tablesB[name] {
                Issue.record(
                    "table \(name) differs: a \(tablesA[name]?.count ?? 0) entries, b \(tablesB[name]?.count ?? 0)")
            }
            print("cluster under load, moves: \(ledger.summary); a's log \(logA.count) events, b's \(logB.count)")
            await nats.stopAll()
        }

        /// Moves the namespace to `node` with `muster cluster move` under load; expects it moved, and says whether it did.
        static func move(
            to node: String, _ nats: NATSCluster, _ a: ServerProcess, _ b: ServerProcess
        ) async throws -> Bool {
            let move = try await MusterProcess.run(
                ["cluster", "move", "default", node, "--cluster", nats.urls, "--wait", "15"])
            let moved = move.status == 0 && move.stdout.contains("moved to node \(node)")
            #expect(moved, "\(move)\na: \(notable(a))\nb: \(notable(b))")
            return moved
        }

        /// Writes once more through the primary `primary`, once the load has stopped, and waits until `replica` answers
        /// that write from its own log: then the replica holds everything the primary does.
        static func lastWrite(through primary: ServerProcess, readBackOn replica: ServerProcess, token: String)
            async throws
        {
            let last = try await ClusterEndToEndTests.retried(
                primary, "POST", "api/v1/notifications", token: token, json: Writers.notification(titled: "last"))
            try #require(last.status == 201, "\(last.text)")
            let message = try #require((last.object["messageIds"] as? [String])?.first, "\(last.text)")
            try await eventually(
                "the replica to answer the last write itself: \(notable(replica))", timeout: .seconds(20)
            ) {
                let read = try await replica.send("GET", "api/v1/messages/\(message)", token: token)
                return read.status == 200 && read.headers["muster-forwarded-by"] == nil ? true : nil
            }
        }

        /// The last lines a node logged other than its refusals of single requests: what a failure should show.
        static func notable(_ node: ServerProcess) -> String {
            let lines = node.running.stderr.split(separator: "\n").filter { !$0.contains("[MusterHTTP] failed:") }
            let state = node.running.condition
            return "\(state), logged:\n" + lines.suffix(20).joined(separator: "\n")
        }

        /// Expects each acknowledged write in `log` exactly once.
        static func expectEachOnce(
            _ acknowledged: [Writers.Write], in log: NodeLog, _ node: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let lost = acknowledged.filter { log.sent[$0.title] == nil }
            let doubled = acknowledged.filter { (log.sent[$0.title]?.count ?? 0) > 1 }
            let checked = "of \(acknowledged.count) acknowledged writes"
            #expect(
                lost.count == 0,
                "\(lost.count) \(checked) are not in \(node)'s log of \(log.count) events: \(lost.prefix(5))",
                sourceLocation: sourceLocation)
            let positions = doubled.prefix(5).map { "\($0) at \(log.sent[$0.title] ?? [])" }
            #expect(
                doubled.count == 0, "\(doubled.count) \(checked) are in \(node)'s log more than once: \(positions)",
                sourceLocation: sourceLocation)
        }
    }
}

extension ClusterSuites.ClusterUnderLoadTests {
    /// Clients that keep sending ada a notification, each with a title of its own, through the nodes in turn, and
    /// what the cluster answered them. A write not answered 201 is not acknowledged and not tried again.
    final class Writers: Sendable {
        /// One acknowledged write: its title, the node it was sent to and the node that answered it.
        struct Write: Sendable, CustomStringConvertible {
            var title: String
            var sentTo: String
            var answeredBy: String
            var description: String { "\(title) (sent to \(sentTo), answered by \(answeredBy))" }
        }

        /// What the cluster answered.
        struct Ledger: Sendable {
            var acknowledged: [Write] = []
            /// Writes answered other than 201, by status (503: retry later).
            var refused: [Int: Int] = [:]
            /// Writes with no answer: the node died, or the connection failed.
            var unanswered = 0

            /// How many writes `node` answered 201, itself or relayed by the other.
            func answered(by node: String) -> Int { acknowledged.filter { $0.answeredBy == node }.count }

            var summary: String {
                let nodes = Set(acknowledged.map(\.answeredBy)).sorted().map { "\(answered(by: $0)) by \($0)" }
                return "\(acknowledged.count) writes acknowledged (\(nodes.joined(separator: ", "))) and checked, "
                    + "refused \(refused.sorted { $0.key < $1.key }), \(unanswered) unanswered"
            }
        }

        /// How many clients write at once.
        static let clients = 24

        private let http: HTTPClient
        private let nodes: [(name: String, base: String)]
        private let token: String
        private let ledger = Mutex(Ledger())
        private let running = Atomic<Bool>(true)

        private init(http: HTTPClient, nodes: [(name: String, base: String)], token: String) {
            self.http = http
            self.nodes = nodes
            self.token = token
        }

        /// Runs ``clients`` writers through `nodes` with `token` while `body` runs; returns what was answered once
        /// every writer has stopped.
        static func writing(
            through nodes: [(String, ServerProcess)], token: String, during body: (Writers) async throws -> Void
        ) async throws -> Ledger {
            var configuration = HTTPClient.Configuration()
            configuration.timeout.connect = .seconds(2)
            configuration.connectionPool = .init(
                idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients)
            // A node that died refuses the connection: the write fails at once instead of being tried until its
            // deadline.
            configuration.connectionPool.retryConnectionEstablishment = false
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let writers = Writers(
                http: http, nodes: nodes.map { ($0.0, $0.1.base.absoluteString) }, token: token)
            let running = Task {
                await withTaskGroup(of: Void.self) { group in
                    for client in 0..<clients { group.addTask { await writers.keepWriting(from: client) } }
                }
            }
            do {
                try await body(writers)
            } catch {
                writers.running.store(false, ordering: .releasing)
                await running.value
                try? await http.shutdown()
                throw error
            }
            writers.running.store(false, ordering: .releasing)
            await running.value
            try await http.shutdown()
            return writers.recorded
        }

        var recorded: Ledger { ledger.withLock { $0 } }

        /// Waits until what was answered so far satisfies `condition`, for at most `timeout`.
        func wait(
            until what: @autoclosure () -> String, timeout: Duration = .seconds(60), _ condition: (Ledger) -> Bool
        ) async throws {
            try await eventually(what(), timeout: timeout) { condition(recorded) ? true : nil }
        }

        /// The body of a notification to ada titled `title`.
        static func notification(titled title: String) -> String {
            #"{"to":["ada"],"title":"\#(title)","body":"Under load","payload":\#(ClusterSuites.ClusterEndToEndTests.payload)}"#
        }

        private func keepWriting(from client: Int) async {
            var turn = client
            while running.load(ordering: .acquiring) {
                let node = nodes[turn % nodes.count]
                turn += 1
                let title = "load-\(UUID().uuidString)"
                do {
                    let (status, answeredBy) = try await send(titled: title, to: node.base)
                    if status == 201 {
                        let write = Write(title: title, sentTo: node.name, answeredBy: answeredBy ?? node.name)
                        ledger.withLock { $0.acknowledged.append(write) }
                        continue
                    }
                    ledger.withLock { $0.refused[status, default: 0] += 1 }
                } catch {
                    ledger.withLock { $0.unanswered += 1 }
                }
                // Pacing, not waiting: a node that died or has no primary yet answers at once, and two dozen
                // clients spinning on it would starve the node taking over on a small machine.
                try? await Task.sleep(for: .milliseconds(10))
            }
        }

        /// Sends one notification; returns the status and the node that answered when another relayed it.
        private func send(titled title: String, to base: String) async throws -> (Int, String?) {
            var request = HTTPClientRequest(url: base + "/api/v1/notifications")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: Self.notification(titled: title)))
            let answer = try await http.execute(request, timeout: .seconds(20))
            _ = try await answer.body.collect(upTo: 1 << 20)
            return (Int(answer.status.code), answer.headers.first(name: "Muster-Forwarded-By"))
        }
    }

    /// A stopped node's log: its events as stored and as read, and the positions of each notification by title.
    struct NodeLog {
        var stored: [StoredEvent]
        var events: [RecordedEvent]
        var sent: [String: [UInt64]] = [:]

        init(_ node: ServerProcess) throws {
            let log = try EventLog(directory: node.directory.url)
            defer { log.close() }
            events = try log.read { reader in try (1...reader.head).compactMap { try reader.event(at: $0) } }
            stored = try log.read { try $0.storedEvents(from: 1, limit: Int.max) }
            for event in events {
                if let title = try PayloadSent.decode(event)?.title {
                    sent[title, default: []].append(event.position)
                }
            }
        }

        var count: Int { stored.count }
        var types: [String] { events.map(\.type) }

        /// How many events from the first on both logs hold alike.
        func commonPrefix(with other: NodeLog) -> Int { zip(stored, other.stored).prefix { $0 == $1 }.count }

        /// The titles of the notifications past the first `count` events.
        func titles(after count: Int) -> Set<String> {
            Set(sent.filter { $0.value.contains { $0 > UInt64(count) } }.keys)
        }

        /// Each event's position and type, and for a notification its title and whether it was acknowledged.
        func describe(_ events: some Sequence<RecordedEvent>, _ acknowledged: [Writers.Write]) -> [String] {
            events.map { event in
                guard let title = try? PayloadSent.decode(event)?.title else {
                    return "\(event.position) \(event.type)"
                }
                let write = acknowledged.first { $0.title == title }
                return "\(event.position) \(event.type) \(write.map { "\($0)" } ?? "\(title), not acknowledged")"
            }
        }

        /// Where this log and `other` part, and what each holds there (a notification named acknowledged or not).
        func divergence(from other: NodeLog, acknowledged: [Writers.Write]) -> String {
            let common = commonPrefix(with: other)
            let this = describe(events.dropFirst(common).prefix(3), acknowledged)
            let that = other.describe(other.events.dropFirst(common).prefix(3), acknowledged)
            return
                "the logs hold \(count) and \(other.count) events, alike up to \(common); then one holds \(this), "
                + "the other \(that)"
        }
    }
}
