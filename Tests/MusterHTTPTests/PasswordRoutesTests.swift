import EventLog
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `PUT /api/v1/users/{name}/password`: one's own with the current one, anyone's for an administrator.
@Suite struct PasswordRoutesTests {
    @Test func aUserChangesTheirOwnWithTheCurrentOneAndTheirOtherSessionsEnd() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let tablet = try await client.login("joe")
            let head = api.log.head
            let path = "/api/v1/users/joe/password"

            let missing = try await client.send(.put, path, token: joe, json: #"{"password":"a new password"}"#)
            #expect(missing.status == .badRequest, "\(missing.text)")
            #expect(missing.text.contains("currentPassword"))
            let wrong = try await client.send(
                .put, path, token: joe, json: #"{"password":"a new password","currentPassword":"not-his"}"#)
            #expect(wrong.status == .forbidden, "\(wrong.text)")
            #expect(!wrong.text.contains("not-his") && !wrong.text.contains("a new password"))
            let short = try await client.send(
                .put, path, token: joe, json: #"{"password":"short","currentPassword":"secret-joe"}"#)
            #expect(short.status == .badRequest, "\(short.text)")
            #expect(api.log.head == head, "nothing was recorded")

            let changed = try await client.send(
                .put, path, token: joe, json: #"{"password":"a new password","currentPassword":"secret-joe"}"#)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(changed.object["username"] as? String == "joe")
            #expect(changed.object["hasPassword"] as? Bool == true)
            #expect(
                try await client.send(.get, "/api/v1/auth/verify", token: joe).status == .ok, "this session goes on")
            #expect(try await client.send(.get, "/api/v1/inbox", token: tablet).status == .unauthorized)
            _ = try await client.login("joe", password: "a new password")
            let old = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(old.status == .unauthorized)
        }
    }

    @Test func guessesAtTheCurrentPasswordWaitAsGuessesAtTheLoginDo() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let guess = #"{"password":"a new password","currentPassword":"a guess"}"#
            for _ in 0..<5 {
                let wrong = try await client.send(.put, "/api/v1/users/joe/password", token: joe, json: guess)
                #expect(wrong.status == .forbidden, "\(wrong.text)")
            }
            let right = #"{"password":"a new password","currentPassword":"secret-joe"}"#
            let throttled = try await client.send(.put, "/api/v1/users/joe/password", token: joe, json: right)
            #expect(throttled.status == .tooManyRequests, "\(throttled.text)")
            #expect(throttled.text.contains("too many wrong passwords"), "\(throttled.text)")
            #expect(throttled.headers[.retryAfter] != nil)
            api.t.clock.advance(seconds: 60)
            let later = try await client.send(.put, "/api/v1/users/joe/password", token: joe, json: right)
            #expect(later.status == .ok, "\(later.text)")
        }
    }

    @Test func anAdministratorChangesAnotherUsersAndEverySessionOfTheirsEnds() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let byJoe = try await client.send(
                .put, "/api/v1/users/ada/password", token: joe, json: #"{"password":"joe's choice"}"#)
            #expect(byJoe.status == .forbidden, "\(byJoe.text)")
            let nobody = try await client.send(
                .put, "/api/v1/users/zed/password", token: ada, json: #"{"password":"a new password"}"#)
            #expect(nobody.status == .notFound, "\(nobody.text)")

            let reset = try await client.send(
                .put, "/api/v1/users/joe/password", token: ada, json: #"{"password":"reset by ada"}"#)
            #expect(reset.status == .ok, "\(reset.text)")
            #expect(try await client.send(.get, "/api/v1/auth/verify", token: joe).status == .unauthorized)
            _ = try await client.login("joe", password: "reset by ada")
            let audit = try await client.send(.get, "/api/v1/audit?user=joe", token: ada)
            let details = audit.array.compactMap { $0["detail"] as? String }
            #expect(details.contains("password of joe changed by ada"), "\(details)")
        }
    }
}
