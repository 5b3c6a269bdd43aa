import EventLog
import EventLogTesting
import Foundation
import NATSTesting
import PushTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension ClusterSuites {
    /// Two `muster serve --cluster` nodes of one namespace on three nats-servers: the first is the primary, the second a
    /// replica that answers reads from its own log and forwards writes; when the primary dies, the replica takes over.
    @Suite(.serialized) struct ClusterEndToEndTests {
        static let payload =
            #"{"responseTopic":"/drill","fields":[{"type":"inputString","id":"where","label":"Where?"}]}"#

        /// `muster serve --cluster …` as node `name` on a port of its own, acknowledging writes once replicated.
        static func node(
            _ name: String, _ nats: NATSCluster, administrator: Bool, lease: Int = 4, extra: [String] = []
        ) async throws -> ServerProcess {
            let port = try LoopbackPort.free()
            return try await ServerProcess(
                extraArguments: [
                    "--cluster", nats.urls, "--node", name, "--advertise", "http://127.0.0.1:\(port)",
                    "--lease-seconds",
                    String(lease), "--acknowledge", "replicated",
                ] + extra, administrator: administrator, port: port)
        }

        /// Three nats-servers and two nodes: a, with the administrator ada, the primary once it publishes its log; then b,
        /// joining with an empty directory (each with its `extra` options). Returns them and ada's token.
        static func pair(
            primary: [String] = [], replica: [String] = [], lease: Int = 4
        ) async throws -> (NATSCluster, ServerProcess, ServerProcess, String) {
            let nats = try await NATSCluster(servers: 3)
            let a = try await node("a", nats, administrator: true, lease: lease, extra: primary)
            let ada = try await eventually("node a to take writes") {
                let answer = try await a.send(
                    "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"secret-ada"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
            let b = try await node("b", nats, administrator: false, lease: lease, extra: replica)
            return (nats, a, b, ada)
        }

        /// A request, sent again while it is answered 503 (the cluster's "retry later").
        static func retried(
            _ server: ServerProcess, _ method: String, _ path: String, token: String, json: String
        ) async throws -> ServerProcess.Answer {
            try await eventually("\(method) \(path) answered other than 503") {
                let answer = try await server.send(method, path, token: token, json: json)
                return answer.status == 503 ? nil : answer
            }
        }

        @Test func aReplicaForwardsWritesAnswersReadsFromItsLogAndTakesOverWhenThePrimaryDies() async throws {
            let (nats, a, b, ada) = try await Self.pair()
            defer { Task { await nats.stopAll() } }

            // Writes through b reach a (sent again after a 503, as a client would: a renewal late on a loaded machine).
            let added = try await Self.retried(
                b, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.headers["muster-forwarded-by"] == "a")
            let sent = try await Self.retried(
                b, "POST", "api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Drill","body":"Where are you?","payload":\#(Self.payload)}"#)
            #expect(sent.status == 201, "\(sent.text)")
            // Reads on b come from b's own log, once it has the events.
            let login = try await eventually("joe's login through b") {
                let answer = try await b.send(
                    "POST", "api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe"}"#)
                return answer.status == 503 ? nil : answer
            }
            let joe = try #require(login.object["accessToken"] as? String, "\(login.text)")
            let titles = try await eventually("joe's message in b's inbox") {
                let inbox = try await b.send("GET", "api/v1/inbox", token: joe)
                let titles = inbox.array.compactMap { $0["title"] as? String }
                return inbox.status == 200 && inbox.headers["muster-forwarded-by"] == nil && !titles.isEmpty
                    ? titles : nil
            }
            #expect(titles == ["Drill"])
            // A live stream on b carries what the primary writes, as b appends it to its own log.
            let live = try await StreamWatch(
                port: try #require(b.base.port), path: "api/v1/inbox", token: joe, until: #""title":"Live""#)
            let streamed = try await Self.retried(
                a, "POST", "api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Live","body":"On b's stream","payload":\#(Self.payload)}"#)
            #expect(streamed.status == 201, "\(streamed.text)")
            #expect(try await live.text().contains("event: message"))

            // The cluster as an operator sees it, and a namespace moved to b and back.
            let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"])
            try #require(status.status == 0, "\(status)")
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
            #expect(Set(rows.compactMap { $0["node"] as? String }) == ["a", "b"], "\(status.stdout)")
            #expect(rows.first { $0["node"] as? String == "a" }?["role"] as? String == "primary")
            #expect(rows.first { $0["node"] as? String == "b" }?["role"] as? String == "replica")
            let toB = try await MusterProcess.run(["cluster", "move", "default", "b", "--cluster", nats.urls])
            #expect(toB.status == 0 && toB.stdout.contains("moved to node b"), "\(toB)")
            let onB = try await Self.retried(
                b, "POST", "api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"On b","body":"Moved","payload":\#(Self.payload)}"#)
            #expect(onB.status == 201 && onB.headers["muster-forwarded-by"] == nil, "\(onB.text)")
            let unknown = try await MusterProcess.run(["cluster", "move", "default", "zed", "--cluster", nats.urls])
            #expect(
                unknown.status == 2 && unknown.stderr.contains("node zed does not serve namespace default"),
                "\(unknown)")
            let toA = try await MusterProcess.run(["cluster", "move", "default", "a", "--cluster", nats.urls])
            #expect(toA.status == 0, "\(toA)")

            // The primary dies; b takes the namespace over and takes writes itself.
            #expect(await a.stop(with: SIGKILL) == SIGKILL)
            let late = try await eventually(
                "node b to take writes itself (\(b.running.stderr.suffix(3000)))", timeout: .seconds(60)
            ) {
                let answer = try await b.send(
                    "POST", "api/v1/notifications", token: ada,
                    json: #"{"to":["joe"],"title":"After","body":"Still there?","payload":\#(Self.payload)}"#)
                return answer.status == 201 && answer.headers["muster-forwarded-by"] == nil ? answer : nil
            }
            #expect(late.status == 201)
            #expect(await b.stop() == 0)

            // Both logs hold the same events at the same positions, up to where a died.
            let logA = try EventLog(directory: a.directory.url)
            let logB = try EventLog(directory: b.directory.url)
            let eventsA = try logA.read { try $0.storedEvents(from: 1, limit: Int.max) }
            let eventsB = try logB.read { try $0.storedEvents(from: 1, limit: Int.max) }
            #expect(!eventsA.isEmpty && eventsB.count > eventsA.count)
            #expect(Array(eventsB.prefix(eventsA.count)) == eventsA)
            let types = try logB.read { reader in try (1...reader.head).compactMap { try reader.event(at: $0)?.type } }
            #expect(types.filter { $0 == "PrimaryChanged" }.count == 4)  // a, b (moved), a (moved back), b (took over)
            logA.close()
            logB.close()
            // The audit tells who was the primary when.
            let audit = try await MusterProcess.run(["audit", "--data", b.directory.url.path, "--json"])
            let primaries = audit.stdout.split(separator: "\n").filter { $0.contains(#""what":"primaryChanged""#) }
            #expect(audit.status == 0 && primaries.count == 4, "\(audit)")
            #expect(primaries.last?.contains("node b (http://127.0.0.1:") == true, "\(primaries)")
            await nats.stopAll()
        }

        @Test func aPrimaryStoppedPastItsLeaseTakesNoWriteWhenResumedAndRejoinsAsAReplica() async throws {
            let (nats, a, b, ada) = try await Self.pair()
            defer { Task { await nats.stopAll() } }
            let first = try await Self.retried(
                b, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(first.status == 201, "\(first.text)")

            // a is stopped (a partition, a long pause) past its lease; b takes over.
            kill(a.running.pid, SIGSTOP)
            let onB = try await eventually("node b to take writes itself", timeout: .seconds(60)) {
                let answer = try await b.send(
                    "POST", "api/v1/users", token: ada, json: #"{"username":"kim","password":"secret-kim"}"#)
                return answer.status == 201 && answer.headers["muster-forwarded-by"] == nil ? answer : nil
            }
            #expect(onB.status == 201)
            let headB = try await eventually("b's report of its head") { () -> Int? in
                let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"])
                let rows = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]]
                return rows?.first { $0["node"] as? String == "b" && $0["role"] as? String == "primary" }?["head"]
                    as? Int
            }

            // Resumed, a takes no write of its own: it finds its lease gone and follows b.
            kill(a.running.pid, SIGCONT)
            let resumed = try await a.send(
                "POST", "api/v1/users", token: ada, json: #"{"username":"lee","password":"secret-lee"}"#)
            #expect(resumed.status == 201 || resumed.status == 503, "\(resumed.text)")
            #expect(resumed.status == 503 || resumed.headers["muster-forwarded-by"] == "b", "\(resumed.headers)")
            try await eventually("a to rejoin as a replica of b") { () -> Bool? in
                let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"])
                let rows = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]]
                let row = rows?.first { $0["node"] as? String == "a" }
                return row?["role"] as? String == "replica" && (row?["head"] as? Int ?? 0) >= headB ? true : nil
            }
            #expect(await a.stop() == 0)
            #expect(await b.stop() == 0)
            let logA = try EventLog(directory: a.directory.url)
            let logB = try EventLog(directory: b.directory.url)
            let eventsA = try logA.read { try $0.storedEvents(from: 1, limit: Int.max) }
            let eventsB = try logB.read { try $0.storedEvents(from: 1, limit: Int.max) }
            #expect(eventsA == Array(eventsB.prefix(eventsA.count)) && eventsA.count >= headB)
            logA.close()
            logB.close()
            await nats.stopAll()
        }

        /// The primary counts a request a replica forwards by the client's address (signed by the replica with the
        /// cluster's key), not the replica's: an attacker failing logins through a replica is throttled, another
        /// client of the same replica is not, and the failures are recorded with the attacker's address.
        @Test func thePrimaryThrottlesAClientBehindAReplicaByTheClientsAddress() async throws {
            let (nats, a, b, _) = try await Self.pair(
                primary: ClientAddressHeaderTests.longWait, replica: ["--client-address-header", "X-Real-IP"])
            defer { Task { await nats.stopAll() } }
            func login(_ password: String, from address: String) async throws -> ServerProcess.Answer {
                try await eventually("a login through b answered other than 503") {
                    let answer = try await b.send(
                        "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"\#(password)"}"#,
                        headers: ["X-Real-IP": address])
                    return answer.status == 503 ? nil : answer
                }
            }
            var answer = try await login("guess", from: "192.0.2.66")
            for _ in 0..<50 where answer.status != 429 { answer = try await login("guess", from: "192.0.2.66") }
            #expect(answer.status == 429, "the attacker is throttled: \(answer.text)")
            #expect(answer.headers["muster-forwarded-by"] == "a", "by the primary")
            let other = try await login("secret-ada", from: "192.0.2.7")
            #expect(other.status == 200, "another client of the same replica logs in: \(other.text)")

            let failures = try await a.run(["events", "--type", "LoginFailed", "--json"] + a.data)
            try #require(failures.status == 0, "\(failures)")
            let addresses = try failures.jsonLines().compactMap { ($0["body"] as? [String: Any])?["clientAddress"] }
            #expect(!addresses.isEmpty && addresses.allSatisfy { $0 as? String == "192.0.2.66" }, "\(failures.stdout)")
            #expect(await b.stop() == 0, "\(b.running.state())")
            #expect(await a.stop() == 0, "\(a.running.state())")
            await nats.stopAll()
        }

        /// A document's content goes with its event: uploaded on the primary (1.2 MB, three parts in the blob stream),
        /// it is served by the replica from its own store — also once the primary is gone.
        @Test func aDocumentUploadedOnThePrimaryIsServedByTheReplicaFromItsOwnStore() async throws {
            let (nats, a, b, ada) = try await Self.pair()
            defer { Task { await nats.stopAll() } }
            let photo = MediaSamples.file("jpeg", size: 1_200_000)
            let uploaded = try await eventually("the upload on a answered other than 503") {
                let answer = try await a.upload("kind=image", photo, type: "image/jpeg", token: ada)
                return answer.status == 503 ? nil : answer
            }
            #expect(uploaded.status == 201, "\(uploaded.text)")
            let name = try #require(uploaded.object["name"] as? String)
            let served = try await eventually("b to serve the document itself") {
                let answer = try await b.send("GET", "api/v1/documents/\(name)", token: ada)
                return answer.status == 200 && answer.headers["muster-forwarded-by"] == nil ? answer : nil
            }
            #expect(Array(served.body) == photo)
            #expect(served.headers["content-type"] == "image/jpeg")

            #expect(await a.stop(with: SIGKILL) == SIGKILL)
            let after = try await b.send("GET", "api/v1/documents/\(name)", token: ada)
            #expect(after.status == 200 && Array(after.body) == photo, "the content outlives the primary")
            #expect(await b.stop() == 0, "\(b.running.state())")
            await nats.stopAll()
        }

        /// A node whose log turns out, while it runs, to hold another event than the stream — here one written into
        /// its directory while it was stopped, at a position the stream reaches only later — stops by itself, saying
        /// why, rather than serve reads it can no longer bring up to date; started again, it sets its directory aside
        /// and rebuilds the namespace from the stream.
        @Test func aNodeWhoseLogDivergesWhileItRunsStopsAndIsRebuiltWhenStartedAgain() async throws {
            let (nats, a, b, ada) = try await Self.pair()
            defer { Task { await nats.stopAll() } }
            let joe = try await Self.retried(
                a, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(joe.status == 201, "\(joe.text)")
            try await Self.usersOn(b, token: ada, include: ["ada", "joe"])
            #expect(await b.stop() == 0)
            // An event of b's own, at the position the stream fills next.
            let zed = try await b.run(["users", "add", "zed", "--password-stdin"] + b.data, stdin: "secret-zed\n")
            try #require(zed.status == 0, "\(zed)")
            try await b.startAgain()
            #expect(!b.running.stderr.contains("moved aside"), "a log longer than the stream is kept at start")

            let ann = try await Self.retried(
                a, "POST", "api/v1/users", token: ada, json: #"{"username":"ann","password":"secret-ann"}"#)
            #expect(ann.status == 201, "\(ann.text)")
            try await eventually("b to stop by itself", seconds: 60) { !b.running.isRunning }
            #expect(await b.stop() == 1, "\(b.running.state())")
            #expect(b.running.stderr.contains("The node stopped so that it is started again"), "\(b.running.stderr)")

            try await b.startAgain()
            #expect(b.running.stderr.contains("moved aside to"), "\(b.running.stderr)")
            try await Self.usersOn(b, token: ada, include: ["ada", "joe", "ann"])
            let users = try await b.send("GET", "api/v1/users", token: ada)
            #expect(!users.array.contains { $0["username"] as? String == "zed" }, "\(users.text)")
            #expect(await b.stop() == 0, "\(b.running.state())")
            #expect(await a.stop() == 0, "\(a.running.state())")
            let parent = b.directory.url.deletingLastPathComponent()
            for aside in try FileManager.default.contentsOfDirectory(atPath: parent.path)
            where aside.hasPrefix(b.directory.url.lastPathComponent + ".diverged-") {
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(aside))
            }
            await nats.stopAll()
        }

        /// Waits until `server` lists `users` (and maybe more), read from its own log.
        static func usersOn(_ server: ServerProcess, token: String, include users: Set<String>) async throws {
            try await eventually("\(users) listed by \(server.base) from its own log") {
                let answer = try await server.send("GET", "api/v1/users", token: token)
                let names = Set(answer.array.compactMap { $0["username"] as? String })
                return answer.status == 200 && answer.headers["muster-forwarded-by"] == nil
                    && names.isSuperset(of: users)
            }
        }

        /// NATS loses one server of three: writes go on. Two: a write is answered 503 `unavailable` with `Retry-After`
        /// and a message saying to retry, and reads go on, on both nodes. When the servers are back, writes resume, and
        /// each node follows the stream again — a, if another node took the namespace while its log held a refused
        /// write, after it stopped and was rebuilt.
        @Test func writesStopWithAClear503WhileNATSHasNoQuorumAndResumeWhenItReturns() async throws {
            // A lease longer than the leader elections of a killed server's streams: a stays the primary throughout
            // (with 4 s, a busy machine saw b take the namespace while one server was down, fencing a).
            let (nats, a, b, ada) = try await Self.pair(lease: 20)
            defer { Task { await nats.stopAll() } }
            var n = 0
            func addUser(through server: ServerProcess) async throws -> ServerProcess.Answer {
                n += 1
                return try await server.send(
                    "POST", "api/v1/users", token: ada, json: #"{"username":"user\#(n)","password":"secret-\#(n)"}"#)
            }
            await nats.kill(server: 2)
            let withOneDown = try await eventually("a write taken with one NATS server down") {
                let answer = try await addUser(through: a)
                return answer.status == 503 ? nil : answer
            }
            #expect(withOneDown.status == 201, "\(withOneDown.text)")

            await nats.kill(server: 1)
            let refused = try await eventually("a write refused while NATS has no quorum") {
                let answer = try await addUser(through: a)
                return answer.status == 503 ? answer : nil
            }
            let error = try #require(refused.object["error"] as? [String: Any], "\(refused.text)")
            #expect(error["code"] as? String == "unavailable", "\(refused.text)")
            #expect((error["message"] as? String)?.contains("retry") == true, "\(refused.text)")
            #expect(refused.headers["retry-after"] != nil)
            // Reads go on, each node from its own log (b's may lag: the stream cannot be read without a quorum).
            let onA = try await a.send("GET", "api/v1/users", token: ada)
            #expect(onA.status == 200 && onA.array.contains { $0["username"] as? String == "user1" }, "\(onA.text)")
            let onB = try await b.send("GET", "api/v1/users", token: ada)
            #expect(onB.status == 200 && onB.array.contains { $0["username"] as? String == "ada" }, "\(onB.text)")

            try await nats.restart(server: 1)
            try await nats.restart(server: 2)
            let resumed = try await eventually("writes to resume once NATS is back", timeout: .seconds(120)) {
                let answer = try await addUser(through: a)
                return answer.status == 201 ? answer : nil
            }
            #expect(resumed.status == 201)
            // A write caught in flight when the quorum went (appended here, then refused 503 when it could not be
            // replicated) is in a's own log but not in the stream. If a kept or took back the namespace, it published
            // it; if b took it, a's log no longer matches the stream, and a stops, to be started again and rebuilt.
            let resumedUser = "user\(n)"
            let aStopped = try await eventually("a to list \(resumedUser) from its own log, or to stop") {
                () -> Bool? in
                if !a.running.isRunning { return true }
                guard let users = try? await a.send("GET", "api/v1/users", token: ada),
                    users.headers["muster-forwarded-by"] == nil,
                    users.array.contains(where: { $0["username"] as? String == resumedUser })
                else { return nil }
                return false
            }
            if aStopped {
                #expect(await a.stop() == 1, "\(a.running.state())")
                #expect(
                    a.running.stderr.contains("The node stopped so that it is started again"), "\(a.running.stderr)")
                try await a.startAgain()
                #expect(a.running.stderr.contains("moved aside to"), "\(a.running.stderr)")
                try await Self.usersOn(a, token: ada, include: ["ada", "user1", resumedUser])
            }
            #expect(await b.stop() == 0, "\(b.running.state())")
            #expect(await a.stop() == 0, "\(a.running.state())")
            let parent = a.directory.url.deletingLastPathComponent()
            for aside in try FileManager.default.contentsOfDirectory(atPath: parent.path)
            where aside.hasPrefix(a.directory.url.lastPathComponent + ".diverged-") {
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(aside))
            }
            await nats.stopAll()
        }

        /// A push source's key goes with the source, outside the log: configured on the primary, it is kept by the
        /// replica, which — once the primary is gone — signs the pushes of a form sent through it with that key; a
        /// source removed there takes its key from the replica's store.
        @Test func aReplicaThatTakesOverSignsPushesWithTheKeyOfASourceConfiguredOnThePrimary() async throws {
            let (nats, a, b, ada) = try await Self.pair()
            defer { Task { await nats.stopAll() } }
            let configured = try await Self.retried(
                a, "POST", "api/v1/push/sources", token: ada,
                json: #"{"name":"browsers","kind":"webpush","subject":"mailto:ops@example.org"}"#)
            #expect(configured.status == 201, "\(configured.text)")
            let details = try #require(configured.object["details"] as? [String: Any], "\(configured.text)")
            let endpoint = try await WebPushEndpoint.start(expectedKey: try #require(details["publicKey"] as? String))
            defer { Task { await endpoint.stop() } }
            let added = try await Self.retried(
                a, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(added.status == 201, "\(added.text)")
            let login = try await Self.retried(
                a, "POST", "api/v1/auth/token", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            let joe = try #require(login.object["accessToken"] as? String, "\(login.text)")
            let browser = endpoint.subscribe()
            let device = try JSONSerialization.data(withJSONObject: [
                "deviceId": "laptop", "deviceName": "Firefox", "platform": "web", "token": browser.json,
            ])
            let registered = try await Self.retried(
                a, "POST", "api/v1/devices", token: joe, json: String(decoding: device, as: UTF8.self))
            #expect(registered.status == 201, "\(registered.text)")
            let secrets = b.directory.url.appendingPathComponent("secrets")
            let kept = try await eventually("the key in b's secret store") {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: secrets.path)) ?? []
                return names.count == 1 ? names[0] : nil
            }
            let mode =
                try FileManager.default.attributesOfItem(atPath: secrets.appendingPathComponent(kept).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600)

            #expect(await a.stop(with: SIGKILL) == SIGKILL)
            let sent = try await eventually(
                "node b to take writes itself (\(b.running.stderr.suffix(3000)))", timeout: .seconds(60)
            ) {
                let answer = try await b.send(
                    "POST", "api/v1/notifications", token: ada,
                    json: #"{"to":["joe"],"title":"After","body":"Still there?","payload":\#(Self.payload)}"#)
                return answer.status == 201 && answer.headers["muster-forwarded-by"] == nil ? answer : nil
            }
            #expect(sent.status == 201)
            try await eventually("the push signed by b to reach joe's browser") { endpoint.receivedCount == 1 }
            #expect(endpoint.received.first?.json["title"] as? String == "After")

            let removed = try await b.send("DELETE", "api/v1/push/sources/browsers", token: ada)
            #expect(removed.status == 204, "\(removed.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: secrets.path).isEmpty)
            #expect(await b.stop() == 0, "\(b.running.state())")
            await nats.stopAll()
        }

        /// A node whose data directory holds events the cluster never took — here a directory of its own, with its own
        /// administrator at the positions where the stream holds a's — sets it aside at start (kept beside it,
        /// nothing deleted) and rebuilds the namespace from the stream.
        @Test func aNodeWhoseLogDivergesFromTheStreamSetsItAsideAndRebuildsTheNamespace() async throws {
            let (nats, a, b, ada) = try await Self.pair()
            defer { Task { await nats.stopAll() } }
            let added = try await Self.retried(
                a, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(added.status == 201, "\(added.text)")

            let c = try await Self.node("c", nats, administrator: true)
            let parent = c.directory.url.deletingLastPathComponent()
            let aside = try #require(
                try FileManager.default.contentsOfDirectory(atPath: parent.path).first {
                    $0.hasPrefix(c.directory.url.lastPathComponent + ".diverged-")
                }, "the old directory beside the new one: \(c.running.stderr)")
            let kept = parent.appendingPathComponent(aside)
            defer { try? FileManager.default.removeItem(at: kept) }
            #expect(c.running.stderr.contains("moved aside to \(kept.path)"), "\(c.running.stderr)")
            let users = try await eventually("joe in c's rebuilt directory, read there") {
                let answer = try await c.send("GET", "api/v1/users", token: ada)
                let names = answer.array.compactMap { $0["username"] as? String }
                return answer.status == 200 && answer.headers["muster-forwarded-by"] == nil && names.contains("joe")
                    ? names : nil
            }
            #expect(Set(users) == ["ada", "joe"])

            #expect(await c.stop() == 0, "\(c.running.state())")
            #expect(await b.stop() == 0, "\(b.running.state())")
            #expect(await a.stop() == 0, "\(a.running.state())")
            // The old log is kept as it was: its own first event, not the stream's.
            let old = try EventLog(directory: kept)
            let rebuilt = try EventLog(directory: c.directory.url)
            let onA = try EventLog(directory: a.directory.url)
            let first = try [old, rebuilt, onA].map { log in try log.read { try $0.event(at: 1)?.id } }
            [old, rebuilt, onA].forEach { $0.close() }
            #expect(first[0] != nil && first[0] != first[2], "the set-aside log is c's own")
            #expect(first[1] == first[2], "the rebuilt log is the stream's")
            await nats.stopAll()
        }
    }
}
