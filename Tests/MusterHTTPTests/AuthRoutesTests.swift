import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

@Suite struct AuthRoutesTests {
    @Test func theServerTellsItsTypeWithoutAToken() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let answer = try await client.send(.get, "/api/v1/server")
            #expect(answer.status == .ok)
            #expect(answer.object["serverType"] as? String == "Internal")
            #expect(answer.object["version"] is String)
        }
    }

    @Test func loggingInGivesTokensThatVerifyAndLoggingOutRevokesThem() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let login = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe","deviceId":"phone"}"#)
            #expect(login.status == .ok)
            #expect(login.object["username"] as? String == "joe")
            #expect(login.object["preferredUsername"] as? String == "joe")
            let expiresAt = try #require(login.object["expiresAt"] as? String)
            #expect(expiresAt == "2026-01-01T01:00:00Z", "an hour after the log's clock")
            let token = try #require(login.object["accessToken"] as? String)
            let refresh = try #require(login.object["refreshToken"] as? String)
            #expect(token != refresh)

            let verify = try await client.send(.get, "/api/v1/auth/verify", token: token)
            #expect(verify.status == .ok)
            #expect(verify.object["authValid"] as? Bool == true)
            #expect(verify.object["username"] as? String == "joe")
            #expect(verify.object["serverType"] as? String == "Internal")

            #expect(try await client.send(.post, "/api/v1/auth/logout", token: token).status == .noContent)
            let after = try await client.send(.get, "/api/v1/auth/verify", token: token)
            #expect(after.status == .unauthorized)
            #expect(after.errorCode == "token_revoked")
            let refreshAfter = try await client.send(
                .post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
            #expect(refreshAfter.status == .unauthorized)
        }
    }

    @Test func anExpiredAccessTokenSaysRefreshAndTheRefreshTokenStillWorks() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let login = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"ann","password":"secret-ann"}"#)
            let token = try #require(login.object["accessToken"] as? String)
            let refresh = try #require(login.object["refreshToken"] as? String)
            api.t.clock.advance(seconds: 3601)
            let expired = try await client.send(.get, "/api/v1/inbox", token: token)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorCode == "token_expired")
            #expect(expired.errorMessage.contains("refresh"))
            let renewed = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
            #expect(renewed.status == .ok)
        }
    }

    @Test func refreshingRotatesTheTokens() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let login = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"ann","password":"secret-ann"}"#)
            let old = try #require(login.object["accessToken"] as? String)
            let refresh = try #require(login.object["refreshToken"] as? String)
            let renewed = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
            #expect(renewed.status == .ok)
            let new = try #require(renewed.object["accessToken"] as? String)
            #expect(new != old)
            #expect(try await client.send(.get, "/api/v1/auth/verify", token: new).status == .ok)
            #expect(try await client.send(.get, "/api/v1/auth/verify", token: old).errorCode == "token_revoked")
        }
    }

    @Test func replayingARotatedRefreshTokenEndsTheSession() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let a = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"ann","password":"secret-ann"}"#)
            let refreshA = try #require(a.object["refreshToken"] as? String)
            let b = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refreshA)"}"#)
            let accessB = try #require(b.object["accessToken"] as? String)
            let refreshB = try #require(b.object["refreshToken"] as? String)
            let replay = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refreshA)"}"#)
            #expect(replay.status == .unauthorized)
            let verify = try await client.send(.get, "/api/v1/auth/verify", token: accessB)
            #expect(verify.status == .unauthorized)
            #expect(verify.errorCode == "token_revoked")
            let refresh = try await client.send(
                .post, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(refreshB)"}"#)
            #expect(refresh.status == .unauthorized)
        }
    }

    @Test(arguments: [
        (#"{"username":"joe","password":"wrong"}"#, "invalid_credentials"),
        (#"{"username":"nobody","password":"secret"}"#, "invalid_credentials"),
        (#"{"username":"joe","password":"secret-joe","namespace":"other"}"#, "invalid_credentials"),
    ])
    func aFailedLoginIsOneUnauthorizedAnswerThatDoesNotSayWhichPartWasWrong(body: String, code: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let answer = try await client.send(.post, "/api/v1/auth/token", json: body)
            #expect(answer.status == .unauthorized)
            #expect(answer.errorCode == code)
            #expect(answer.errorMessage == "wrong username or password")
        }
    }

    @Test func repeatedFailedLoginsAreThrottledWithRetryAfter() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            for _ in 0..<5 {
                let answer = try await client.send(
                    .post, "/api/v1/auth/token", json: #"{"username":"joe","password":"guess"}"#)
                #expect(answer.status == .unauthorized)
            }
            let head = api.log.head
            let throttled = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"joe","password":"secret-joe"}"#)
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.errorCode == "throttled")
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(api.log.head == head, "a throttled attempt writes nothing")
            // Someone else is not affected.
            #expect(
                try await client.send(
                    .post, "/api/v1/auth/token", json: #"{"username":"ann","password":"secret-ann"}"#
                ).status == .ok)
        }
    }

    @Test(arguments: [
        ("Bearer not-a-token", "token_unknown"),
        ("Basic am9lOnNlY3JldA==", "unauthenticated"),
        ("Bearer", "unauthenticated"),
    ])
    func aBadAuthorizationHeaderIsRefusedSayingWhatToDo(header: String, code: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let answer = try await client.send(.get, "/api/v1/inbox", headers: [.authorization: header])
            #expect(answer.status == .unauthorized)
            #expect(answer.errorCode == code)
            #expect(!answer.errorMessage.isEmpty)
        }
    }

    @Test func routesOfAPersonNeedAToken() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            for (method, path) in [
                (HTTPRequest.Method.get, "/api/v1/inbox"), (.get, "/api/v1/devices"), (.get, "/api/v1/auth/verify"),
                (.post, "/api/v1/notifications"), (.get, "/api/v1/requests"),
            ] {
                let answer = try await client.send(method, path)
                #expect(answer.status == .unauthorized, "\(method) \(path)")
                #expect(answer.errorCode == "unauthenticated", "\(method) \(path)")
            }
        }
    }

    @Test func createInternalUserIsForAdministratorsUnlessRegistrationIsOpen() async throws {
        let closed = try await APITester.make()
        defer { closed.remove() }
        try await closed.run { client in
            let body =
                #"{"username":"kim","password":"pw-kim","email":"kim@example.com","firstName":"Kim","lastName":"Lee","phone":"+33 1 23"}"#
            #expect(try await client.send(.post, "/api/v1/users", json: body).status == .unauthorized)
            let joe = try await client.login("joe")
            #expect(try await client.send(.post, "/api/v1/users", token: joe, json: body).status == .forbidden)
            let ada = try await client.login("ada")
            let created = try await client.send(.post, "/api/v1/users", token: ada, json: body)
            #expect(created.status == .created)
            #expect(created.object["firstName"] as? String == "Kim")
            #expect(created.object["phone"] as? String == "+33 1 23")
            #expect(created.object["password"] == nil)
            #expect(try await client.send(.post, "/api/v1/users", token: ada, json: body).status == .conflict)
            _ = try await client.login("kim", password: "pw-kim")
        }
        let open = try await APITester.make { $0.openRegistration = true }
        defer { open.remove() }
        try await open.run { client in
            let created = try await client.send(
                .post, "/api/v1/users", json: #"{"username":"lou","password":"pw-lou"}"#)
            #expect(created.status == .created)
            #expect(created.object["isAdmin"] as? Bool == false)
            let admin = try await client.send(
                .post, "/api/v1/users", json: #"{"username":"max","password":"pw","isAdmin":true}"#)
            #expect(admin.status == .forbidden)
        }
    }
}
