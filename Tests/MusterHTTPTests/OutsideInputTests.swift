import Foundation
import HTTPTypes
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// What a caller puts in a header, a query or a path is checked before it reaches the log: a clear
/// 4xx naming it, never a trap, never a quiet reinterpretation (issue 10, found by probing 0.1.0).
@Suite struct OutsideInputTests {
    /// `Last-Event-ID: 18446744073709551615` ended the server with an arithmetic overflow.
    @Test(arguments: ["18446744073709551615", "18446744073709551614", "99999", "-1", "1e3", "0x10", ""])
    func aLastEventIdThatIsNoPositionOfThisLogIsA400(_ lastEventId: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ada = try await client.login("ada")
            let headers: HTTPFields = [.accept: "text/event-stream", .init("Last-Event-ID")!: lastEventId]
            for (path, token) in [("/api/v1/inbox", joe), ("/api/v1/topics/a/%23", ada)] {
                let answer = try await client.send(.get, path, token: token, headers: headers)
                #expect(answer.status == .badRequest, "\(path) with Last-Event-ID \(lastEventId): \(answer.text)")
                #expect(answer.errorFields == ["Last-Event-ID"])
                #expect(answer.errorMessage.contains("not a position of this log"))
            }
        }
    }

    @Test(arguments: ["18446744073709551615", "18446744073709551616", "99999", "-1"])
    func aFromBeyondTheHeadIsA400(_ from: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ada = try await client.login("ada")
            for (path, token) in [("/api/v1/inbox", joe), ("/api/v1/topics/a/%23", ada)] {
                let answer = try await client.send(
                    .get, "\(path)?from=\(from)", token: token, headers: [.accept: "text/event-stream"])
                #expect(answer.status == .badRequest, "\(path)?from=\(from): \(answer.text)")
                #expect(answer.errorFields == ["from"])
            }
        }
    }

    @Test(arguments: ["2026-02-30", "2026-13-01", "2026-00-10", "2026-04-31", "2025-02-29"])
    func aQuotaDateThatIsNoDayIsA400(_ date: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let answer = try await client.send(.get, "/api/v1/quota/joe?date=\(date)", token: ada)
            #expect(answer.status == .badRequest, "\(date): \(answer.text)")
            #expect(answer.errorFields == ["date"])
            let leap = try await client.send(.get, "/api/v1/quota/joe?date=2028-02-29", token: ada)
            #expect(leap.status == .ok, "\(leap.text)")
        }
    }

    @Test func aKnownPathWithAnotherMethodIsA405NamingTheAllowedOnes() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let inbox = try await client.send(.delete, "/api/v1/inbox", token: joe)
            #expect(inbox.status == .methodNotAllowed, "\(inbox.text)")
            #expect(inbox.headers[.allow] == "GET")
            #expect(inbox.errorCode == "method_not_allowed")
            let message = try await client.send(.patch, "/api/v1/messages/\(UUID())", token: joe)
            #expect(message.status == .methodNotAllowed, "\(message.text)")
            #expect(message.headers[.allow] == "DELETE, GET")
            let geofence = try await client.send(.post, "/api/v1/geofences/12", token: joe)
            #expect(geofence.headers[.allow] == "DELETE, GET, PUT")
            let unknown = try await client.send(.delete, "/api/v1/nothing-here", token: joe)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func jsonWithoutAContentTypeIsA415() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let answer = try await client.send(
                .post, "/api/v1/auth/token", body: Array(#"{"username":"joe","password":"secret-joe"}"#.utf8))
            #expect(answer.status == .unsupportedMediaType, "\(answer.text)")
            #expect(answer.errorMessage.contains("Content-Type: application/json"))
        }
    }

    @Test func messageIdsAreLowerCaseOnEveryRouteAndAcceptedInEitherCase() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Colour","body":"Pick one","payload":\#(colourPayload)}"#)
            let id = try #require((sent.object["messageIds"] as? [String])?.first)
            #expect(id == id.lowercased(), "send answered \(id)")
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.array.first?["messageId"] as? String == id)
            let upper = try await client.send(.get, "/api/v1/messages/\(id.uppercased())", token: joe)
            #expect(upper.status == .ok)
            #expect(upper.object["messageId"] as? String == id)
            let answer = try await client.send(
                .post, "/api/v1/messages/\(id.uppercased())/response", token: joe,
                json: #"{"deviceId":"phone","values":{"simpleDropList":"Red"}}"#)
            #expect(answer.status == .created, "\(answer.text)")
            let audit = try await client.send(.get, "/api/v1/audit?user=joe", token: ada)
            let ids = audit.array.compactMap { $0["messageId"] as? String }
            #expect(!ids.isEmpty && ids.allSatisfy { $0 == id }, "audit: \(audit.text)")
        }
    }

    /// A message id in the path that is not a UUID: one 400 naming the value and what was expected, for reading
    /// and for answering alike.
    @Test func aMessageIdThatIsNoUUIDIsA400NamingIt() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let read = try await client.send(.get, "/api/v1/messages/not-a-uuid", token: joe)
            let answered = try await client.send(
                .post, "/api/v1/messages/not-a-uuid/response", token: joe,
                json: #"{"deviceId":"phone","values":{}}"#)
            for refused in [read, answered] {
                #expect(refused.status == .badRequest)
                #expect(refused.errorCode == "bad_request")
                #expect(refused.errorMessage == "message id not-a-uuid is not a UUID")
            }
        }
    }

    @Test(arguments: ["a//b", "a/../b", "a/./b", "..", "a/b/", "a/%2E%2E/b"])
    func aTopicWithAnEmptyOrDotSegmentIsRefusedForPublishing(_ topic: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let head = api.log.head
            let answer = try await client.send(.post, "/api/v1/topics/\(topic)", token: ada, json: #"{"x":1}"#)
            #expect(answer.status == .badRequest, "\(topic): \(answer.text)")
            #expect(api.log.head == head)
        }
    }
}
