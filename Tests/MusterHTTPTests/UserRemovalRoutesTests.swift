import EventLog
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `DELETE /api/v1/users/{name}`: an administrator removes another user of the namespace.
@Suite struct UserRemovalRoutesTests {
    @Test func anAdministratorRemovesAUserWhoseSessionsEndAndWhoLeavesTheirGroups() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")

            let removed = try await client.send(.delete, "/api/v1/users/joe", token: ada)

            #expect(removed.status == .ok, "\(removed.text)")
            #expect(removed.object["name"] as? String == "joe")
            #expect(removed.object["sessionsEnded"] as? Int == 1)
            #expect(removed.object["groupsLeft"] as? [String] == ["ops"])
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).status == .unauthorized)
            let login = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(login.status == .unauthorized, "\(login.text)")
            let users = try await client.send(.get, "/api/v1/users", token: ada)
            #expect(users.array.compactMap { $0["username"] as? String } == ["ada", "ann"])
            let groups = try await client.send(.get, "/api/v1/groups", token: ada)
            #expect(groups.array.first?["members"] as? [String] == ["ann"])
            let audit = try await client.send(.get, "/api/v1/audit?user=joe", token: ada)
            #expect(audit.array.compactMap { $0["detail"] as? String }.contains("user joe removed by ada"))
            let group = try await client.send(.delete, "/api/v1/groups/ops", token: ada)
            #expect(group.status == .noContent, "\(group.text)")
            #expect(try await client.send(.get, "/api/v1/groups", token: ada).array.isEmpty)
            #expect(try await client.send(.delete, "/api/v1/groups/ops", token: ada).status == .notFound)
            // The other namespace's joe is another person.
            _ = try await client.login("joe", namespace: "other", password: "secret-joe-other")
        }
    }

    @Test func nobodyElseRemovesAUserAndNoAdministratorThemselves() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let head = api.log.head

            let byJoe = try await client.send(.delete, "/api/v1/users/ann", token: joe)
            #expect(byJoe.status == .forbidden, "\(byJoe.text)")
            let herself = try await client.send(.delete, "/api/v1/users/ada", token: ada)
            #expect(herself.status == .conflict, "\(herself.text)")
            #expect(herself.text.contains("another administrator can"), "\(herself.text)")
            let nobody = try await client.send(.delete, "/api/v1/users/zed", token: ada)
            #expect(nobody.status == .notFound, "\(nobody.text)")
            // A name is exact, as every lookup's: ADA is nobody (a login as ADA would find ada).
            let shouted = try await client.send(.delete, "/api/v1/users/ADA", token: ada)
            #expect(shouted.status == .notFound && shouted.text.contains("ADA"), "\(shouted.text)")
            #expect(api.log.head == head, "nothing was recorded")
            #expect(try await client.send(.get, "/api/v1/auth/verify", token: ada).status == .ok)
        }
    }
}
