import EventLog
import EventLogTesting
import Foundation
import MQTTTesting
import NATSTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension ClusterSuites {
    /// Nodes that serve several namespaces, each kept in a data directory of its own (`DATA/namespaces/NAME/`) and with
    /// its own primary: a request reaches its caller's namespace on any node — answered there when the node holds the
    /// namespace's lease or the request reads, forwarded to the namespace's primary otherwise.
    @Suite(.serialized) struct MultiNamespaceNodeTests {
        static let payload = ClusterEndToEndTests.payload

        /// `muster serve --cluster … --namespaces north,south` as node `name`; `prepare` runs in its data directory first.
        static func node(
            _ name: String, _ nats: NATSCluster, extra: [String] = [], prepare: (URL) async throws -> Void = { _ in }
        ) async throws -> ServerProcess {
            let port = try LoopbackPort.free()
            return try await ServerProcess(
                extraArguments: [
                    "--cluster", nats.urls, "--node", name, "--advertise", "http://127.0.0.1:\(port)",
                    "--lease-seconds", "4", "--acknowledge", "replicated", "--namespaces", "north,south",
                ] + extra, administrator: false, port: port, prepare: prepare)
        }

        /// The administrators ada of north and eve of south, made by the CLI in each namespace's directory.
        static func administrators(_ data: URL) async throws {
            for (user, namespace) in [("ada", "north"), ("eve", "south")] {
                let added = try await MusterProcess.run(
                    [
                        "users", "add", user, "--admin", "--password-stdin", "--namespace", namespace, "--data",
                        data.appendingPathComponent("namespaces/\(namespace)").path,
                    ], stdin: "secret-\(user)\n")
                try #require(added.status == 0, "\(added)")
            }
        }

        /// Logs `user` of `namespace` in through `server`, as often as it is answered 503 (a namespace still taking
        /// its primary); the access token.
        static func login(_ server: ServerProcess, _ user: String, _ namespace: String) async throws -> String {
            try await eventually("\(user) of \(namespace) logged in") {
                let answer = try await server.send(
                    "POST", "api/v1/auth/token",
                    json: #"{"username":"\#(user)","password":"secret-\#(user)","namespace":"\#(namespace)"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
        }

        @Test func eachNamespaceHasItsOwnPrimaryAndEveryNodeServesBoth() async throws {
            let nats = try await NATSCluster(servers: 3)
            defer { Task { await nats.stopAll() } }
            let a = try await Self.node("a", nats, prepare: Self.administrators)
            let ada = try await Self.login(a, "ada", "north")
            let eve = try await Self.login(a, "eve", "south")
            let b = try await Self.node("b", nats)
            let made = b.directory.url.appendingPathComponent("namespaces").path
            #expect(try FileManager.default.attributesOfItem(atPath: made)[.posixPermissions] as? Int == 0o700)
            for namespace in ["north", "south"] {
                #expect(
                    FileManager.default.fileExists(
                        atPath: a.directory.url.appendingPathComponent("namespaces/\(namespace)/data.mdb").path))
            }

            // south moves to b; north stays on a.
            try await eventually("b to follow south") {
                let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"])
                return status.stdout.contains(#""node":"b""#)
            }
            let moved = try await MusterProcess.run(["cluster", "move", "south", "b", "--cluster", nats.urls])
            #expect(moved.status == 0, "\(moved)")
            let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"])
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]], "\(status)")
            let roles = Dictionary(
                uniqueKeysWithValues: rows.compactMap { row -> (String, String)? in
                    guard let namespace = row["namespace"] as? String, let node = row["node"] as? String,
                        let role = row["role"] as? String
                    else { return nil }
                    return ("\(namespace)/\(node)", role)
                })
            #expect(
                roles == ["north/a": "primary", "north/b": "replica", "south/a": "replica", "south/b": "primary"],
                "\(status.stdout)")

            // A write reaches its namespace's primary from either node; a token a node has not issued works there.
            let southUser = try await ClusterEndToEndTests.retried(
                a, "POST", "api/v1/users", token: eve, json: #"{"username":"joe","password":"secret-joe-south"}"#)
            #expect(southUser.status == 201 && southUser.headers["muster-forwarded-by"] == "b", "\(southUser.text)")
            let northUser = try await ClusterEndToEndTests.retried(
                b, "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe-north"}"#)
            #expect(northUser.status == 201 && northUser.headers["muster-forwarded-by"] == "a", "\(northUser.text)")
            let sent = try await ClusterEndToEndTests.retried(
                a, "POST", "api/v1/notifications", token: eve,
                json: #"{"to":["joe"],"title":"South","body":"Where are you?","payload":\#(Self.payload)}"#)
            #expect(sent.status == 201 && sent.headers["muster-forwarded-by"] == "b", "\(sent.text)")

            // Each joe reads his own namespace's inbox on either node, from that node's own log.
            let joeSouth = try await eventually("south's joe logged in on a") {
                let answer = try await a.send(
                    "POST", "api/v1/auth/token",
                    json: #"{"username":"joe","password":"secret-joe-south","namespace":"south"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
            let joeNorth = try await Self.loginJoeOfNorth(b)
            for server in [a, b] {
                let titles = try await eventually("south's message in south's inbox on \(server.base)") {
                    let inbox = try await server.send("GET", "api/v1/inbox", token: joeSouth)
                    let titles = inbox.array.compactMap { $0["title"] as? String }
                    return inbox.status == 200 && inbox.headers["muster-forwarded-by"] == nil && !titles.isEmpty
                        ? titles : nil
                }
                #expect(titles == ["South"])
                let north = try await server.send("GET", "api/v1/inbox", token: joeNorth)
                #expect(north.status == 200 && north.array.isEmpty, "\(north.text)")
            }

            // a dies: b takes north over too, and takes its writes itself.
            #expect(await a.stop(with: SIGKILL) == SIGKILL)
            let late = try await eventually(
                "node b to take north's writes itself (\(b.running.stderr.suffix(3000)))", timeout: .seconds(60)
            ) {
                let answer = try await b.send(
                    "POST", "api/v1/notifications", token: ada,
                    json: #"{"to":["joe"],"title":"North","body":"After a","payload":\#(Self.payload)}"#)
                return answer.status == 201 && answer.headers["muster-forwarded-by"] == nil ? answer : nil
            }
            #expect(late.status == 201)
            #expect(await b.stop() == 0, "\(b.running.state())")

            // Each namespace's logs: a's a prefix of b's, and no event of one namespace in the other's.
            for namespace in ["north", "south"] {
                let logA = try EventLog(directory: a.directory.url.appendingPathComponent("namespaces/\(namespace)"))
                let logB = try EventLog(directory: b.directory.url.appendingPathComponent("namespaces/\(namespace)"))
                let eventsA = try logA.read { try $0.storedEvents(from: 1, limit: Int.max) }
                let eventsB = try logB.read { try $0.storedEvents(from: 1, limit: Int.max) }
                #expect(!eventsA.isEmpty && Array(eventsB.prefix(eventsA.count)) == eventsA, "\(namespace)")
                let namespaces = try logB.read { reader in
                    Set(try (1...reader.head).compactMap { try reader.event(at: $0)?.namespace })
                }
                #expect(namespaces == [namespace])
                logA.close()
                logB.close()
            }
            await nats.stopAll()
        }

        /// With an MQTT broker: each namespace's bridge (a broker session of its own, `--mqtt-client-id` and the
        /// namespace) subscribes to its own devices' topics, and what a phone publishes is recorded in its namespace's
        /// log alone.
        @Test func eachNamespacesPhonesReachItsOwnLogThroughOneBroker() async throws {
            let phones = ["north": "phones/north/out", "south": "phones/south/out"]
            let broker = try await MQTTBroker(
                users: [
                    .everything(name: "muster", password: "bridge-secret"),
                    MQTTBrokerUser(name: "phone", password: "phone-secret", read: [], write: Array(phones.values)),
                ])
            defer { Task { await broker.stop() } }
            let nats = try await NATSCluster(servers: 1)
            defer { Task { await nats.stopAll() } }
            let work = try TemporaryDirectory("namespaces-mqtt")
            defer { work.remove() }
            let password = work.url.appendingPathComponent("mqtt-password")
            try Data("bridge-secret\n".utf8).write(to: password)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: password.path)
            let bridge = ["--mqtt", broker.url, "--mqtt-user", "muster", "--mqtt-password-file", password.path]
            let a = try await Self.node("a", nats, extra: ["--cluster-replicas", "1"] + bridge) { data in
                try await Self.administrators(data)
                for (namespace, topic) in phones {
                    let directory = ["--data", data.appendingPathComponent("namespaces/\(namespace)").path]
                    for arguments in [
                        ["users", "add", "joe", "--password-stdin", "--namespace", namespace],
                        [
                            "devices", "register", "--user", "joe", "--device-id", "phone-\(namespace)",
                            "--device-name", "Joe's phone", "--platform", "mqtt", "--token", "phones/\(namespace)/in",
                            "--publish-topic", topic, "--namespace", namespace,
                        ],
                    ] {
                        let done = try await MusterProcess.run(arguments + directory, stdin: "secret-joe\n")
                        try #require(done.status == 0, "\(done)")
                    }
                }
            }
            let tokens = [
                "north": try await Self.login(a, "ada", "north"), "south": try await Self.login(a, "eve", "south"),
            ]
            for (namespace, topic) in phones {
                try await eventually("\(namespace)'s bridge subscribed to \(topic)") {
                    let status = try await a.send("GET", "api/v1/mqtt/status", token: tokens[namespace]!)
                    let subscriptions = status.object["subscriptions"] as? [String] ?? []
                    return subscriptions == [topic]
                }
            }
            let phone = try await MQTTTesting.MQTTDevice(broker.configuration(user: "phone", clientID: "joes-phone"))
            for (namespace, topic) in phones {
                try await phone.publish(
                    #"{"iPhoneID":"phone-\#(namespace)","GPS":{"Altitude":10,"Latitude":54.35,"Longitude":18.65},"Battery":50}"#,
                    to: topic)
            }
            for namespace in phones.keys {
                try await eventually("the phone's report recorded in \(namespace)") {
                    let status = try await a.send("GET", "api/v1/mqtt/status", token: tokens[namespace]!)
                    return (status.object["counts"] as? [String: Any])?["recorded"] as? Int == 1
                }
            }
            await phone.close()
            #expect(await a.stop() == 0, "\(a.running.state())")
            for namespace in phones.keys {
                let log = try EventLog(directory: a.directory.url.appendingPathComponent("namespaces/\(namespace)"))
                let reports = try log.read { reader in
                    try (1...reader.head).compactMap { try reader.event(at: $0) }.filter {
                        $0.type == "LocationReported"
                    }
                }
                log.close()
                #expect(reports.count == 1 && reports.allSatisfy { $0.namespace == namespace }, "\(namespace)")
            }
            await nats.stopAll()
            await broker.stop()
        }

        /// Settings that cannot work are refused before anything starts (no NATS is reached, no directory made).
        @Test func namespacesThatCannotBeServedAreRefusedNamingTheOption() async throws {
            let work = try TemporaryDirectory("namespaces-options")
            defer { work.remove() }
            let data = work.url.appendingPathComponent("data").path
            let cluster = ["serve", "--data", data, "--cluster", "nats://127.0.0.1:1"]
            let refusals: [([String], String)] = [
                (["serve", "--data", data, "--namespaces", "north,south"], "--namespaces, --cluster-user"),
                (cluster + ["--namespaces", "north,north"], "--namespaces north,north: a namespace is named twice"),
                (cluster + ["--namespaces", "north,"], "--namespaces north,: namespace must not be empty"),
                (
                    cluster + ["--namespaces", "north,south", "--namespace", "east"],
                    "--namespace east is not among --namespaces north,south"
                ),
            ]
            for (arguments, message) in refusals {
                let refused = try await MusterProcess.run(arguments)
                #expect(refused.status == 2 && refused.stderr.contains(message), "\(refused)")
            }
            #expect(!FileManager.default.fileExists(atPath: data))
        }

        static func loginJoeOfNorth(_ server: ServerProcess) async throws -> String {
            try await eventually("north's joe logged in") {
                let answer = try await server.send(
                    "POST", "api/v1/auth/token",
                    json: #"{"username":"joe","password":"secret-joe-north","namespace":"north"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
        }
    }
}
