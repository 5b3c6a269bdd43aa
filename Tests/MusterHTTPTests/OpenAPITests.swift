import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing
import Yams

/// `openapi.yaml` at the repository root describes the server: the same routes, and answers with
/// the members its schemas require.
@Suite struct OpenAPITests {
    /// Read once: parsing the document takes a debug build about a second. Never changed after.
    nonisolated(unsafe) static let specification: [String: Any] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return ((try? Yams.load(yaml: text)) as? [String: Any]) ?? [:]
    }()

    /// `GET /api/v1/messages/{id}` for every operation of the document.
    static var documentedRoutes: Set<String> {
        let paths = specification["paths"] as? [String: Any] ?? [:]
        var routes = Set<String>()
        for (path, operations) in paths {
            for method in (operations as? [String: Any] ?? [:]).keys {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func theDocumentDescribesExactlyTheServersRoutes() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        #expect(!Self.documentedRoutes.isEmpty, "openapi.yaml is missing or unreadable")
        let served = Set(
            api.server.router().routes.map { route in
                // `:id` is `{id}`; a final `**` is the one path parameter the document names there.
                var path = route.path.description.split(separator: "/").map { segment in
                    segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
                }
                if path.last == "**" {
                    let names = ["documents": "{name}", "topics": "{topic}"]
                    path[path.count - 1] = names[path[path.count - 2]] ?? "{path}"
                }
                return "\(route.method.rawValue) /" + path.joined(separator: "/")
            })
        #expect(served.subtracting(Self.documentedRoutes).sorted() == [], "served but not documented")
        #expect(Self.documentedRoutes.subtracting(served).sorted() == [], "documented but not served")
    }

    @Test func everyRouteThatTakesABodyDocumentsIts413() {
        let paths = Self.specification["paths"] as? [String: Any] ?? [:]
        var taking: [String] = []
        var undocumented: [String] = []
        for (path, operations) in paths {
            for (method, operation) in operations as? [String: Any] ?? [:] {
                guard let operation = operation as? [String: Any], operation["requestBody"] != nil else { continue }
                taking.append("\(method.uppercased()) \(path)")
                let responses = operation["responses"] as? [String: Any] ?? [:]
                if responses["413"] == nil { undocumented.append("\(method.uppercased()) \(path)") }
            }
        }
        #expect(taking.count > 20, "\(taking)")
        #expect(undocumented.sorted() == [], "a body above serve --max-body or --max-document-size is a 413")
    }

    @Test func everyRouteThatWritesDocumentsIts507() {
        let paths = Self.specification["paths"] as? [String: Any] ?? [:]
        var writing: [String] = []
        var undocumented: [String] = []
        for (path, operations) in paths {
            for (method, operation) in operations as? [String: Any] ?? [:]
            where ["post", "put", "delete", "patch"].contains(method) {
                guard let operation = operation as? [String: Any] else { continue }
                writing.append("\(method.uppercased()) \(path)")
                let responses = operation["responses"] as? [String: Any] ?? [:]
                if responses["507"] == nil { undocumented.append("\(method.uppercased()) \(path)") }
            }
        }
        #expect(writing.count > 30, "\(writing)")
        #expect(undocumented.sorted() == [], "a write on a full disk (or data file at its size limit) is a 507")
    }

    /// schemathesis found no route documenting its 401: a token that is sent is checked on every route, and a
    /// missing one refused on each that needs a caller.
    @Test func everyRouteDocumentsIts401() {
        let paths = Self.specification["paths"] as? [String: Any] ?? [:]
        var undocumented: [String] = []
        for (path, operations) in paths {
            for (method, operation) in operations as? [String: Any] ?? [:] {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                if responses["401"] == nil { undocumented.append("\(method.uppercased()) \(path)") }
            }
        }
        #expect(paths.count > 50, "openapi.yaml is missing or unreadable")
        #expect(undocumented.sorted() == [], "an expired, revoked or unknown bearer token is a 401 on any route")
    }

    /// The schema `name` of components, with `$ref`s followed.
    static func schema(_ name: String) -> [String: Any] {
        let components = specification["components"] as? [String: Any] ?? [:]
        return (components["schemas"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    static func requiredMembers(_ schema: [String: Any]) -> [String] { schema["required"] as? [String] ?? [] }

    @Test func answersCarryTheMembersTheirSchemasRequire() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let device = try await client.send(
                .post, "/api/v1/devices", token: joe, json: #"{"deviceId":"p","deviceName":"P","platform":"fcm"}"#)
            for member in Self.requiredMembers(Self.schema("Device")) {
                #expect(device.object[member] != nil, "Device.\(member)")
            }
            let users = try await client.send(.get, "/api/v1/users", token: ada)
            for member in Self.requiredMembers(Self.schema("User")) {
                #expect(users.array.first?[member] != nil, "User.\(member)")
            }
            _ = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"T","body":"B","payload":\#(colourPayload)}"#)
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            for member in Self.requiredMembers(Self.schema("InboxItem")) {
                #expect(inbox.array.first?[member] != nil, "InboxItem.\(member)")
            }
            let events = try await client.send(.get, "/api/v1/events", token: ada)
            #expect(Self.requiredMembers(Self.schema("Event")).count == 12)
            for member in Self.requiredMembers(Self.schema("Event")) {
                // A null causationId is there all the same (NSNull).
                #expect(events.array.first?[member] != nil, "Event.\(member)")
            }
            let refused = try await client.send(.get, "/api/v1/messages/not-a-uuid", token: joe)
            let error = try #require(refused.object["error"] as? [String: Any])
            let codes =
                ((Self.schema("Error")["properties"] as? [String: Any])?["error"] as? [String: Any])
                .flatMap { ($0["properties"] as? [String: Any])?["code"] as? [String: Any] }?["enum"] as? [String]
            #expect(codes?.contains(error["code"] as? String ?? "") == true)
        }
    }
}
