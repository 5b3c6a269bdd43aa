import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `/api/v1/sends`: a send followed in pages, filtered by state, and its rest withdrawn in one request; every
/// malformed parameter refused by name, with nothing written.
@Suite struct SendRoutesTests {
    static let payload = #"{"responseTopic":"/roll","fields":[]}"#

    @Test func aSendIsReadInPagesAndItsRestWithdrawnInOneRequest() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe","ada"],"title":"Roll call","body":"","payload":\#(Self.payload)}"#)
            let sendId = try #require(sent.object["sendId"] as? String)
            let first = try await client.send(.get, "/api/v1/sends/\(sendId)?limit=1", token: ada)
            #expect((first.object["messages"] as? [[String: Any]])?.map { $0["user"] as? String } == ["joe"])
            #expect(first.object["nextFrom"] as? Int == 1, "\(first.text)")
            let second = try await client.send(.get, "/api/v1/sends/\(sendId)?limit=1&from=1", token: ada)
            #expect((second.object["messages"] as? [[String: Any]])?.map { $0["user"] as? String } == ["ada"])
            #expect(second.object["nextFrom"] == nil, "the last page: \(second.text)")

            let joesMessage = try #require((sent.object["messageIds"] as? [String])?.first)
            let answered = try await client.send(
                .post, "/api/v1/messages/\(joesMessage)/response", token: joe,
                json: #"{"deviceId":"phone","values":{}}"#)
            #expect(answered.status == .created, "\(answered.text)")
            let pending = try await client.send(.get, "/api/v1/sends/\(sendId)?state=pending", token: ada)
            #expect((pending.object["messages"] as? [[String: Any]])?.map { $0["user"] as? String } == ["ada"])

            let head = api.log.head
            let withdrawn = try await client.send(.post, "/api/v1/sends/\(sendId)/withdraw", token: ada)
            #expect(withdrawn.status == .ok)
            #expect(withdrawn.object as NSDictionary == ["sendId": sendId, "withdrawn": 1])
            #expect(api.log.head == head + 1, "ada's message withdrawn; joe's answer stays")
            let again = try await client.send(.post, "/api/v1/sends/\(sendId)/withdraw", token: ada)
            #expect(again.object["withdrawn"] as? Int == 0 && api.log.head == head + 1)
            let shown = try await client.send(.get, "/api/v1/sends/\(sendId)", token: ada)
            #expect(shown.object["answered"] as? Int == 1 && shown.object["withdrawn"] as? Int == 1)
            let listed = try await client.send(.get, "/api/v1/sends?before=\(sendId)", token: ada)
            #expect(listed.status == .ok && listed.array.isEmpty, "nothing was sent before it: \(listed.text)")
        }
    }

    @Test func aMalformedParameterIsRefusedByNameAndAnUnknownSendIsNotFound() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Roll call","body":"","payload":\#(Self.payload)}"#)
            let sendId = try #require(sent.object["sendId"] as? String)
            let head = api.log.head
            for (query, field) in [
                ("state=late", "state"), ("from=-1", "from"), ("from=x", "from"), ("limit=0", "limit"),
                ("limit=10001", "limit"),
            ] {
                let refused = try await client.send(.get, "/api/v1/sends/\(sendId)?\(query)", token: ada)
                #expect(refused.status == .badRequest && refused.errorFields == [field], "\(query): \(refused.text)")
            }
            for query in ["before=nope", "before=\(UUID().uuidString)"] {
                let refused = try await client.send(.get, "/api/v1/sends?\(query)", token: ada)
                #expect(refused.status == .badRequest && refused.errorFields == ["before"], "\(refused.text)")
            }
            let unknown = try await client.send(.post, "/api/v1/sends/\(UUID().uuidString)/withdraw", token: ada)
            #expect(unknown.status == .notFound && unknown.errorFields == ["id"], "\(unknown.text)")
            let notAnId = try await client.send(.post, "/api/v1/sends/nope/withdraw", token: ada)
            #expect(notAnId.status == .badRequest && notAnId.errorFields == ["id"], "\(notAnId.text)")
            #expect(api.log.head == head, "nothing was written")
        }
    }
}
