import EventLog
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `GET /api/v1/sessions` and `DELETE /api/v1/sessions/{id}`: where one is logged in, and a session ended from another.
@Suite struct SessionRoutesTests {
    @Test func joeEndsHisLostPhonesSessionFromHisLaptopAndAdaCanToo() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let phone = try await client.login("joe")
            let laptop = try await client.login("joe")
            let listed = try await client.send(.get, "/api/v1/sessions", token: laptop)
            #expect(listed.status == .ok && listed.array.count == 2, "\(listed.text)")
            #expect(listed.array.filter { $0["isCurrent"] as? Bool == true }.count == 1)
            let lost = try #require(listed.array.first { $0["isCurrent"] as? Bool == false }?["sessionId"] as? String)
            #expect(lost == lost.lowercased())

            let ann = try await client.login("ann")
            #expect(try await client.send(.get, "/api/v1/sessions?user=joe", token: ann).status == .forbidden)
            #expect(try await client.send(.delete, "/api/v1/sessions/\(lost)", token: ann).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/sessions/not-an-id", token: laptop).status == .badRequest)

            let ended = try await client.send(.delete, "/api/v1/sessions/\(lost)", token: laptop)
            #expect(ended.status == .noContent, "\(ended.text)")
            #expect(try await client.send(.get, "/api/v1/inbox", token: phone).status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/inbox", token: laptop).status == .ok)

            // An administrator lists joe's and ends the one left.
            let ada = try await client.login("ada")
            let joes = try await client.send(.get, "/api/v1/sessions?user=joe", token: ada)
            let left = try #require(joes.array.first?["sessionId"] as? String)
            #expect(joes.array.count == 1 && joes.array.first?["isCurrent"] as? Bool == false)
            #expect(try await client.send(.delete, "/api/v1/sessions/\(left)", token: ada).status == .noContent)
            let nobody = try await client.send(.get, "/api/v1/sessions?user=zed", token: ada)
            #expect(nobody.status == .notFound && nobody.text.contains("zed"), "\(nobody.text)")
            // Everyone's, by user (joe has none left): an administrator's to see.
            let all = try await client.send(.get, "/api/v1/sessions?all=true", token: ada)
            #expect(all.array.compactMap { $0["user"] as? String } == ["ada", "ann"], "\(all.text)")
            #expect(all.array.filter { $0["isCurrent"] as? Bool == true }.count == 1)
            #expect(try await client.send(.get, "/api/v1/sessions?all=true", token: ann).status == .forbidden)
            let both = try await client.send(.get, "/api/v1/sessions?all=true&user=joe", token: ada)
            #expect(both.status == .badRequest && both.text.contains("not both"), "\(both.text)")
            let malformed = try await client.send(.get, "/api/v1/sessions?all=yes", token: ada)
            #expect(malformed.status == .badRequest && malformed.text.contains("all"), "\(malformed.text)")
            #expect(try await client.send(.get, "/api/v1/inbox", token: laptop).status == .unauthorized)
        }
    }
}
