import EventLog
import EventLogTesting
import Foundation
import NATSTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension ClusterSuites {
    /// The issue's cluster: three nats-servers and three `muster serve --cluster` nodes of one namespace. A form sent on
    /// the primary is read from each replica's own log; when the primary dies, exactly one replica takes over, the
    /// other follows it, and the two hold the same events at the same positions and the same projections.
    @Suite(.serialized) struct ThreeNodeClusterTests {
        typealias Cluster = ClusterEndToEndTests

        @Test func everyReplicaReadsWhatThePrimaryWroteAndOneTakesOverWhenItDies() async throws {
            let (nats, a, b, ada) = try await Cluster.pair()
            defer { Task { await nats.stopAll() } }
            let c = try await Cluster.node("c", nats, administrator: false)

            // joe, and a form for him, written on the primary; each replica answers joe's inbox from its own log.
            let added = try await Cluster.retried(
                a, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(added.status == 201, "\(added.text)")
            let sent = try await Cluster.retried(
                a, "POST", "api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Drill","body":"Where are you?","payload":\#(Cluster.payload)}"#)
            #expect(sent.status == 201, "\(sent.text)")
            // A login is a write too: sent again after a 503, as the writes above are.
            let joe = try await eventually("joe logged in on the primary") {
                let answer = try await a.send(
                    "POST", "api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
            for (name, replica) in [("b", b), ("c", c)] {
                let titles = try await eventually("joe's message in \(name)'s inbox, read there") {
                    let inbox = try await replica.send("GET", "api/v1/inbox", token: joe)
                    let titles = inbox.array.compactMap { $0["title"] as? String }
                    return inbox.status == 200 && inbox.headers["muster-forwarded-by"] == nil && !titles.isEmpty
                        ? titles : nil
                }
                #expect(titles == ["Drill"], "on \(name)")
            }

            // The primary dies: one replica takes writes itself, and the other forwards its writes there.
            #expect(await a.stop(with: SIGKILL) == SIGKILL)
            let (primary, name) = try await eventually("b or c to take writes itself", timeout: .seconds(60)) {
                for (name, node) in [("b", b), ("c", c)] {
                    let answer = try await node.send(
                        "POST", "api/v1/notifications", token: ada,
                        json: #"{"to":["joe"],"title":"After","body":"Still there?","payload":\#(Cluster.payload)}"#)
                    if answer.status == 201 && answer.headers["muster-forwarded-by"] == nil { return (node, name) }
                }
                return nil
            }
            let (other, otherName) = name == "b" ? (c, "c") : (b, "b")
            let forwarded = try await Cluster.retried(
                other, "POST", "api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Through \#(otherName)","body":"Here","payload":\#(Cluster.payload)}"#)
            #expect(forwarded.status == 201, "\(forwarded.text)")
            #expect(forwarded.headers["muster-forwarded-by"] == name, "\(otherName) forwards to the new primary")

            // The other replica catches up (as the nodes report it), then both stop.
            try await eventually("\(otherName) to hold all of \(name)'s log", timeout: .seconds(30)) {
                let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"])
                guard status.status == 0,
                    let rows = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]]
                else { return false }
                let heads = Dictionary(
                    rows.compactMap { row in (row["node"] as? String).map { ($0, row["head"] as? Int) } },
                    uniquingKeysWith: { first, _ in first })
                return heads[name] != nil && heads[name] == heads[otherName]
            }
            #expect(await other.stop() == 0, "\(other.running.state())")
            #expect(await primary.stop() == 0, "\(primary.running.state())")

            // No two nodes hold different events at one position: a's log (up to where it died) and the other
            // replica's are each a prefix of the new primary's — here the whole of it.
            func events(_ node: ServerProcess) throws -> [StoredEvent] {
                let log = try EventLog(directory: node.directory.url)
                defer { log.close() }
                return try log.read { try $0.storedEvents(from: 1, limit: Int.max) }
            }
            let onPrimary = try events(primary)
            let onOther = try events(other)
            let onA = try events(a)
            #expect(onOther == onPrimary, "\(onOther.count) events on \(otherName), \(onPrimary.count) on \(name)")
            #expect(!onA.isEmpty && Array(onPrimary.prefix(onA.count)) == onA)
            #expect(onPrimary.map(\.position) == Array(1...UInt64(onPrimary.count)), "contiguous")
            let log = try EventLog(directory: primary.directory.url)
            let types = try log.read { reader in try (1...reader.head).compactMap { try reader.event(at: $0)?.type } }
            log.close()
            #expect(types.filter { $0 == "PrimaryChanged" }.count == 2, "a, then \(name)")
            // And every projection alike, table by table.
            #expect(try await NodeTables.of(other.directory.url) == NodeTables.of(primary.directory.url))
            await nats.stopAll()
        }
    }
}
