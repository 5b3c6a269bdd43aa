import EventLog
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `PATCH /api/v1/users/{name}` and `GET`: an administrator changes and reads anyone's profile, a user their own (but
/// not whether they administer).
@Suite struct UserChangeRoutesTests {
    @Test func anAdministratorMakesJoeOneAndHisNextRequestIsAnAdministrators() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            #expect(try await client.send(.get, "/api/v1/users", token: joe).status == .forbidden)

            let made = try await client.send(
                .patch, "/api/v1/users/joe", token: ada, json: #"{"isAdmin":true,"timeZone":"Europe/Paris"}"#)

            #expect(made.status == .ok, "\(made.text)")
            #expect(made.object["isAdmin"] as? Bool == true)
            #expect(made.object["timeZone"] as? String == "Europe/Paris")
            #expect(try await client.send(.get, "/api/v1/users", token: joe).status == .ok)
            let back = try await client.send(.patch, "/api/v1/users/joe", token: ada, json: #"{"isAdmin":false}"#)
            #expect(back.object["isAdmin"] as? Bool == false, "\(back.text)")
            #expect(try await client.send(.get, "/api/v1/users", token: joe).status == .forbidden)
        }
    }

    @Test func aUserChangesTheirOwnButNotTheirRoleNorAnothersAndNoAdministratorLeavesTheRole() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let own = try await client.send(
                .patch, "/api/v1/users/joe", token: joe, json: #"{"email":"joe@example.org","phone":"112"}"#)
            #expect(own.status == .ok, "\(own.text)")
            #expect(own.object["email"] as? String == "joe@example.org")
            let head = api.log.head

            let role = try await client.send(.patch, "/api/v1/users/joe", token: joe, json: #"{"isAdmin":true}"#)
            #expect(role.status == .forbidden && role.text.contains("isAdmin"), "\(role.text)")
            let anns = try await client.send(.patch, "/api/v1/users/ann", token: joe, json: #"{"phone":"1"}"#)
            #expect(anns.status == .forbidden, "\(anns.text)")
            let herself = try await client.send(.patch, "/api/v1/users/ada", token: ada, json: #"{"isAdmin":false}"#)
            #expect(herself.status == .conflict && herself.text.contains("another administrator can"))
            let zone = try await client.send(.patch, "/api/v1/users/joe", token: joe, json: #"{"timeZone":"Mars"}"#)
            #expect(zone.status == .badRequest && zone.text.contains("timeZone"), "\(zone.text)")
            let nobody = try await client.send(.patch, "/api/v1/users/zed", token: ada, json: #"{"phone":"1"}"#)
            #expect(nobody.status == .notFound, "\(nobody.text)")
            // A name is exact: JOE is not joe, whom a login as JOE would find.
            let shouted = try await client.send(.patch, "/api/v1/users/JOE", token: joe, json: #"{"phone":"1"}"#)
            #expect(shouted.status == .forbidden && shouted.text.contains("another user's"), "\(shouted.text)")
            let adaShouts = try await client.send(.patch, "/api/v1/users/JOE", token: ada, json: #"{"phone":"1"}"#)
            #expect(adaShouts.status == .notFound && adaShouts.text.contains("JOE"), "\(adaShouts.text)")
            #expect(api.log.head == head, "nothing was recorded")
            let cleared = try await client.send(.patch, "/api/v1/users/joe", token: joe, json: #"{"phone":""}"#)
            #expect(cleared.object["phone"] == nil && cleared.object["email"] as? String == "joe@example.org")

            // Read back by himself and by an administrator; not by ann.
            let read = try await client.send(.get, "/api/v1/users/joe", token: joe)
            #expect(read.status == .ok && read.object["email"] as? String == "joe@example.org", "\(read.text)")
            #expect(try await client.send(.get, "/api/v1/users/joe", token: ada).text == read.text)
            let ann = try await client.login("ann")
            #expect(try await client.send(.get, "/api/v1/users/joe", token: ann).status == .forbidden)
            #expect(try await client.send(.get, "/api/v1/users/zed", token: ada).status == .notFound)
        }
    }
}
