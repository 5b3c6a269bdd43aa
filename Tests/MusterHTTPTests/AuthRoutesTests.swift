import EventLog
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
            #expect(expiresAt == "2026-01-01T01:00:00.000Z", "an hour after the log's clock")
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

    /// A server behind a proxy that names the client in X-Real-IP, so tests can pick addresses.
    static func proxied(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> APITester {
        try await APITester.make {
            $0.clientAddressHeader = .init("X-Real-IP")
            configure(&$0)
        }
    }

    /// The header of a request from `address` through that proxy.
    static func from(_ address: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.init("X-Real-IP")!] = address
        return fields
    }

    static func login(_ user: String, _ password: String, namespace: String? = nil) -> String {
        #"{"username":"\#(user)","password":"\#(password)""# + (namespace.map { #","namespace":"\#($0)"}"# } ?? "}")
    }

    @Test func failedLoginsFromOneAddressWaitGrowingDelaysWhileTheUserLogsInFromAnother() async throws {
        let api = try await Self.proxied()
        defer { api.remove() }
        try await api.run { client in
            let attacker = Self.from("203.0.113.66")
            for _ in 0..<5 {
                let answer = try await client.send(
                    .post, "/api/v1/auth/token", json: Self.login("ada", "guess"), headers: attacker)
                #expect(answer.status == .unauthorized)
            }
            let head = api.log.head
            let throttled = try await client.send(
                .post, "/api/v1/auth/token", json: Self.login("ada", "secret-ada"), headers: attacker)
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.errorCode == "throttled")
            #expect(throttled.headers[.retryAfter] == "1")
            #expect(api.log.head == head, "a throttled attempt writes nothing")
            // ada, from her own address, is not locked out.
            let ada = try await client.send(
                .post, "/api/v1/auth/token", json: Self.login("ada", "secret-ada"),
                headers: Self.from("192.0.2.1"))
            #expect(ada.status == .ok)
            // The attacker's next failure doubles the wait.
            api.t.clock.advance(seconds: 1)
            let again = try await client.send(
                .post, "/api/v1/auth/token", json: Self.login("ada", "guess"), headers: attacker)
            #expect(again.status == .unauthorized)
            let longer = try await client.send(
                .post, "/api/v1/auth/token", json: Self.login("ada", "guess"), headers: attacker)
            #expect(longer.status == .tooManyRequests)
            #expect(longer.headers[.retryAfter] == "2")
            let failures = try api.log.events(EventQuery(type: LoginFailed.type)).compactMap {
                try LoginFailed.decode($0)
            }
            #expect(failures.count == 6)
            #expect(failures.allSatisfy { $0.clientAddress == "203.0.113.66" && $0.user == "ada" })
        }
    }

    @Test func oneAddressTryingManyNamesWaits() async throws {
        let api = try await Self.proxied { $0.sessionPolicy.failedLoginsPerAddress = 3 }
        defer { api.remove() }
        try await api.run { client in
            let attacker = Self.from("203.0.113.9")
            for name in ["joe", "ann", "ghost"] {
                let answer = try await client.send(
                    .post, "/api/v1/auth/token", json: Self.login(name, "guess"), headers: attacker)
                #expect(answer.status == .unauthorized)
            }
            let throttled = try await client.send(
                .post, "/api/v1/auth/token", json: Self.login("ada", "secret-ada"), headers: attacker)
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.headers[.retryAfter] == "1")
            let other = try await client.send(
                .post, "/api/v1/auth/token", json: Self.login("ada", "secret-ada"),
                headers: Self.from("192.0.2.1"))
            #expect(other.status == .ok)
        }
    }

    @Test func failedLoginsForNamesOrNamespacesThatDoNotExistRecordNothing() async throws {
        let api = try await Self.proxied()
        defer { api.remove() }
        try await api.run { client in
            let head = api.log.head
            for i in 0..<6 {
                let body =
                    i % 2 == 0
                    ? Self.login("nobody-\(i)", "guess") : Self.login("joe", "secret-joe", namespace: "nowhere")
                let answer = try await client.send(
                    .post, "/api/v1/auth/token", json: body, headers: Self.from("198.51.100.\(i)"))
                #expect(answer.status == .unauthorized)
                #expect(answer.errorMessage == "wrong username or password")
            }
            #expect(api.log.head == head)
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
                #"{"username":"kim","password":"pw-kim-long","email":"kim@example.com","firstName":"Kim","lastName":"Lee","phone":"+33 1 23"}"#
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
            _ = try await client.login("kim", password: "pw-kim-long")
        }
        let open = try await APITester.make { $0.openRegistration = true }
        defer { open.remove() }
        try await open.run { client in
            let created = try await client.send(
                .post, "/api/v1/users", json: #"{"username":"lou","password":"pw-lou-long"}"#)
            #expect(created.status == .created)
            #expect(created.object["isAdmin"] as? Bool == false)
            let admin = try await client.send(
                .post, "/api/v1/users", json: #"{"username":"max","password":"pw-max-long","isAdmin":true}"#)
            #expect(admin.status == .forbidden)
        }
    }

    @Test(arguments: [
        (#"{"username":"../x","password":"long enough"}"#, "username"),
        (#"{"username":" ada","password":"long enough"}"#, "username"),
        (#"{"username":"ada\u202e","password":"long enough"}"#, "username"),
        (#"{"username":"\u0430da","password":"long enough"}"#, "username"),
        (#"{"username":"kim","password":"a"}"#, "password"),
        (#"{"username":"kim","password":"\#(String(repeating: "é", count: 1025))"}"#, "password"),
    ])
    func createInternalUserRefusesLookAlikeOrPathNamesAndShortOrHugePasswords(body: String, field: String) async throws
    {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let head = api.log.head
            let answer = try await client.send(.post, "/api/v1/users", token: ada, json: body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorFields == [field])
            #expect(answer.errorMessage.hasPrefix(field), "\(answer.errorMessage)")
            #expect(api.log.head == head)
        }
    }

    @Test func aNameDifferingOnlyInCaseIsTakenAndLogsInAsTheUser() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let taken = try await client.send(
                .post, "/api/v1/users", token: ada, json: #"{"username":"JOE","password":"long enough"}"#)
            #expect(taken.status == .conflict)
            let login = try await client.send(
                .post, "/api/v1/auth/token", json: #"{"username":"Joe","password":"secret-joe"}"#)
            #expect(login.status == .ok)
            #expect(login.object["username"] as? String == "joe")
        }
    }
}
