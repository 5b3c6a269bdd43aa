import EventLog
import EventLogTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Muster
import MusterHTTP
import Testing

/// A Muster server on a temporary data directory, driven through its router without sockets.
///
/// Users: ada (administrator), joe and ann (users), all with password "secret-<name>"; group ops = [joe, ann];
/// and in namespace "other": eve (administrator) and joe (another person of the same name).
struct APITester {
    let t: TestLog
    let log: EventLog
    let server: MusterServer

    /// One answer: status, headers and the body (as JSON when it is).
    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: Data

        var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The error code of an error answer.
        var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { ((object["error"] as? [String: Any])?["message"] as? String) ?? "" }
        var errorFields: [String] {
            ((object["error"] as? [String: Any])?["fields"] as? [[String: Any]] ?? []).compactMap {
                $0["field"] as? String
            }
        }
    }

    /// The log's clock is `t.clock` (a test clock: 2026-01-01T00:00:00Z until advanced).
    static func make(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> APITester {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        try await directory.addUser("ada", password: "secret-ada", isAdmin: true)
        try await directory.addUser("joe", password: "secret-joe")
        try await directory.addUser("ann", password: "secret-ann")
        try await directory.defineGroup("ops", members: ["joe", "ann"])
        try await directory.addUser("eve", password: "secret-eve", isAdmin: true, namespace: "other")
        try await directory.addUser("joe", password: "secret-joe-other", namespace: "other")
        var configuration = ServerConfiguration()
        configure(&configuration)
        let server = try await MusterServer.make(log: log, configuration: configuration)
        return APITester(t: t, log: log, server: server)
    }

    func remove() { t.directory.remove() }

    /// Runs `body` with a client of the router.
    func run(_ body: @Sendable (Client) async throws -> Void) async throws {
        let app = Application(router: server.router())
        try await app.test(.router) { client in try await body(Client(client: client)) }
    }

    struct Client: Sendable {
        let client: any TestClientProtocol

        @discardableResult
        func send(
            _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil,
            body: [UInt8]? = nil, headers extra: HTTPFields = [:]
        ) async throws -> Answer {
            var headers = extra
            if let token { headers[.authorization] = "Bearer \(token)" }
            var buffer: ByteBuffer?
            if let json {
                if headers[.contentType] == nil { headers[.contentType] = "application/json" }
                buffer = ByteBuffer(string: json)
            } else if let body {
                buffer = ByteBuffer(bytes: body)
            }
            return try await client.execute(uri: path, method: method, headers: headers, body: buffer) { response in
                Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
            }
        }

        /// Logs in and returns the access token.
        func login(_ user: String, namespace: String? = nil, password: String? = nil) async throws -> String {
            let ns = namespace.map { #","namespace":"\#($0)""# } ?? ""
            let answer = try await send(
                .post, "/api/v1/auth/token",
                json: #"{"username":"\#(user)","password":"\#(password ?? "secret-\(user)")"\#(ns)}"#)
            #expect(answer.status == .ok, "login of \(user): \(answer.text)")
            return try #require(answer.object["accessToken"] as? String)
        }
    }
}

/// The seed's opening example: pick a favourite colour, Blue by default.
let colourPayload = #"""
    {"responseTopic": "/a/b/c", "fields": [{"id": "simpleDropList", "type": "droplist",
     "label": "Pick your favorite color", "values": ["Red","Green","Blue"], "default": "Blue"}],
     "state": {"myStateData": 123}}
    """#
