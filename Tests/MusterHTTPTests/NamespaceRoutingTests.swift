import EventLog
import EventLogTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Muster
import Testing

@testable import MusterHTTP

/// A node keeping two namespaces in logs of their own behind one listener: each request reaches the log of its caller's
/// namespace — the one a login names, the one its token names or whose log knows it — and anything else the default
/// namespace's.
struct NamespaceRoutingTests {
    /// Namespace north (the default: ada, an administrator, and joe) and south (eve, an administrator, and another
    /// joe), each in a log of its own; `tagged`: tokens name their namespace, as a cluster's do.
    struct Node {
        let logs: [String: EventLog]
        let node: MusterNode
        let directories: [TestLog]

        init(tagged: Bool) async throws {
            var logs: [String: EventLog] = [:]
            var servers: [MusterServer] = []
            var directories: [TestLog] = []
            for (namespace, administrator) in [("north", "ada"), ("south", "eve")] {
                let t = try TestLog(namespace)
                let log = try t.open { $0.projections += MusterDomain.projections }
                let directory = Directory(log: log)
                try await directory.addUser(
                    administrator, password: "secret-\(administrator)", isAdmin: true, namespace: namespace)
                try await directory.addUser("joe", password: "secret-joe-\(namespace)", namespace: namespace)
                var configuration = ServerConfiguration()
                configuration.namespace = namespace
                configuration.sessionPolicy.namesNamespaceInTokens = tagged
                servers.append(try await MusterServer.make(log: log, configuration: configuration))
                logs[namespace] = log
                directories.append(t)
            }
            self.logs = logs
            self.directories = directories
            node = MusterNode(servers: servers, defaultNamespace: "north")
        }

        func run(_ body: @Sendable (APITester.Client) async throws -> Void) async throws {
            let app = Application(responder: node.responder())
            try await app.test(.router) { client in try await body(APITester.Client(client: client)) }
        }

        func remove() { directories.forEach { $0.directory.remove() } }

        /// The types of the events `log` holds in `namespace`.
        func types(in namespace: String) throws -> [String] {
            try logs[namespace]!.read { reader in
                try (1...reader.head).compactMap { try reader.event(at: $0) }.filter { $0.namespace == namespace }
                    .map(\.type)
            }
        }
    }

    @Test(arguments: [true, false])
    func eachCallerReachesTheLogOfTheirNamespace(tagged: Bool) async throws {
        let node = try await Node(tagged: tagged)
        defer { node.remove() }
        try await node.run { client in
            // A login naming its namespace goes to that log; one naming none to the default's.
            let joeSouth = try await client.login("joe", namespace: "south", password: "secret-joe-south")
            let joeNorth = try await client.login("joe", password: "secret-joe-north")
            let eve = try await client.login("eve", namespace: "south")
            #expect(Sessions.namespace(namedBy: joeSouth) == (tagged ? "south" : nil))

            for (token, namespace) in [(joeSouth, "south"), (joeNorth, "north")] {
                let verified = try await client.send(.get, "/api/v1/auth/verify", token: token)
                #expect(verified.status == .ok, "\(verified.text)")
                #expect(verified.object["namespace"] as? String == namespace)
            }
            // A write by south's administrator lands in south's log, for south's joe.
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: eve,
                json: #"{"to":["joe"],"title":"South","body":"Only here","payload":\#(colourPayload)}"#)
            #expect(sent.status == .created, "\(sent.text)")
            let south = try await client.send(.get, "/api/v1/inbox", token: joeSouth)
            let north = try await client.send(.get, "/api/v1/inbox", token: joeNorth)
            #expect(south.array.compactMap { $0["title"] as? String } == ["South"])
            #expect(north.status == .ok && north.array.isEmpty, "\(north.text)")

            // A refresh goes to the log that issued its token, and the new pair works there.
            let login = try await client.send(
                .post, "/api/v1/auth/token",
                json: #"{"username":"joe","password":"secret-joe-south","namespace":"south"}"#)
            let refreshToken = try #require(login.object["refreshToken"] as? String)
            let refreshed = try await client.send(
                .post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            let renewed = try #require(refreshed.object["accessToken"] as? String)
            let verified = try await client.send(.get, "/api/v1/auth/verify", token: renewed)
            #expect(verified.object["namespace"] as? String == "south")

            // A token no log knows is answered by the default namespace's server, as any server answers it.
            let unknown = try await client.send(.get, "/api/v1/inbox", token: "mat_nothing")
            #expect(unknown.status == .unauthorized && unknown.errorCode == "token_unknown", "\(unknown.text)")
        }
        #expect(try node.types(in: "south").contains("PayloadSent"))
        #expect(try !node.types(in: "north").contains("PayloadSent"))
        #expect(try node.types(in: "south").filter { $0 == "TokenIssued" }.count == 4)  // 3 logins and a refresh
    }

    @Test func theUbuduWebAPIReachesTheLogOfTheNamespaceItsQueryNames() async throws {
        let node = try await Node(tagged: true)
        defer { node.remove() }
        _ = try await Areas(log: node.logs["south"]!).define(
            [Area(id: "harbour", region: .geofence(latitude: 54.35, longitude: 18.65, radius: 100))],
            namespace: "south")
        try await node.run { client in
            let south = try await client.send(.get, "/u_geofences.json?api_version=2&namespace=south")
            #expect(south.status == .ok, "\(south.text)")
            let fences = south.object["u_geofences"] as? [[String: Any]]
            #expect(fences?.compactMap { $0["id"] as? String } == ["harbour"])
            let north = try await client.send(.get, "/u_geofences.json?api_version=2&namespace=north")
            #expect((north.object["u_geofences"] as? [[String: Any]])?.isEmpty == true, "\(north.text)")
        }
    }
}
