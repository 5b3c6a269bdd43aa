import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

@Suite struct SessionsTests {
    @Test func tokensNameTheirNamespaceWhenThePolicySaysAlsoAfterARefreshOfAnOlderPair() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("ada", password: "ada's password", namespace: "north")
        let untagged = try await f.sessions.login(username: "ada", password: "ada's password", namespace: "north")
        #expect(Sessions.namespace(namedBy: untagged.accessToken) == nil)
        var policy = Sessions.Policy()
        policy.namesNamespaceInTokens = true
        let cluster = Sessions(log: f.log, policy: policy)
        let refreshed = try await cluster.refresh(refreshToken: untagged.refreshToken)
        #expect(Sessions.namespace(namedBy: refreshed.accessToken) == "north")
        #expect(Sessions.namespace(namedBy: refreshed.refreshToken) == "north")
        #expect(try cluster.authenticate(accessToken: refreshed.accessToken).namespace == "north")
        let tagged = try await cluster.login(username: "ada", password: "ada's password", namespace: "north")
        #expect(Sessions.namespace(namedBy: tagged.accessToken) == "north")
        #expect(try cluster.knows(token: tagged.refreshToken, refresh: true))
        #expect(try !cluster.knows(token: tagged.refreshToken))
    }

    /// A log with the domain's projections, its sessions, and users whose scrypt is cheap.
    struct Fixture {
        let t: TestLog
        let log: EventLog
        let sessions: Sessions

        init(policy: Sessions.Policy = Sessions.Policy()) throws {
            t = try TestLog("sessions")
            log = try t.open { $0.projections += MusterDomain.projections }
            sessions = Sessions(log: log, policy: policy)
        }

        /// Appends the user directly, with 16 scrypt rounds instead of 16,384.
        func addUser(
            _ name: String, password: String?, isAdmin: Bool = false, namespace: String = Names.defaultNamespace
        ) async throws {
            var hash: PasswordHash?
            if let password { hash = try await PasswordHash.make(password, rounds: 16) }
            let user = UserCreated(name: name, email: nil, timeZone: "UTC", isAdmin: isAdmin, password: hash)
            try await log.append(
                AppendRequest(
                    namespace: namespace, stream: "user/\(name)", expectedVersion: .noStream,
                    events: [user.newEvent(actor: "test")]))
        }

        /// Why logging in is refused; nil when it succeeds.
        func loginRefusal(
            _ user: String, _ password: String, namespace: String = Names.defaultNamespace, deviceId: String? = nil,
            from address: String? = nil
        ) async -> AuthenticationError? {
            await refusal {
                try await sessions.login(
                    username: user, password: password, namespace: namespace, deviceId: deviceId,
                    clientAddress: address)
            }
        }

        /// Why the access token is refused; nil when it authenticates.
        func accessRefusal(_ token: String) async -> AuthenticationError? {
            await refusal { try sessions.authenticate(accessToken: token) }
        }

        /// Why refreshing is refused; nil when it succeeds.
        func refreshRefusal(_ token: String) async -> AuthenticationError? {
            await refusal { try await sessions.refresh(refreshToken: token) }
        }

        var now: Date { Date(timeIntervalSince1970: Double(t.clock.now) / 1_000_000) }

        func remove() { t.directory.remove() }
    }

    @Test func concurrentLoginsAllGetTokensAndAWrongPasswordStillFails() async throws {
        let f = try Fixture()
        defer { f.remove() }
        for i in 0..<8 { try await f.addUser("u\(i)", password: "pw-\(i)") }
        let refusals = await withTaskGroup(of: AuthenticationError?.self) { group in
            // Each from its own address: the throttle counts an attempt as a failure until it succeeds.
            for i in 0..<32 { group.addTask { await f.loginRefusal("u\(i % 8)", "pw-\(i % 8)", from: "10.0.0.\(i)") } }
            return await group.reduce(into: [AuthenticationError?]()) { $0.append($1) }
        }
        #expect(refusals.count == 32)
        #expect(refusals.allSatisfy { $0 == nil })
        #expect(await f.loginRefusal("u0", "pw-1") == .invalidCredentials)
    }

    @Test func aLoginGivesTokensThatAuthenticateToThePrincipal() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("ann", password: "ann-pw", isAdmin: true)
        try await f.addUser("joe", password: "joe-pw")
        try await f.addUser("joe", password: "other-pw", namespace: "acme")

        let tokens = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "phone")
        #expect(tokens.accessToken.hasPrefix("mat_") && tokens.refreshToken.hasPrefix("mrt_"))
        #expect(tokens.accessToken.count == 4 + 43 && tokens.refreshToken.count == 4 + 43)
        #expect(tokens.username == "joe" && tokens.preferredUsername == "joe")
        #expect(tokens.expiresAt == f.now.addingTimeInterval(3600))
        let joe = try f.sessions.authenticate(accessToken: tokens.accessToken)
        #expect(joe.username == "joe" && joe.namespace == "default" && !joe.isAdmin)
        #expect(joe.deviceId == "phone")
        #expect(joe.expiresAt == tokens.expiresAt)

        let ann = try f.sessions.authenticate(
            accessToken: try await f.sessions.login(username: "ann", password: "ann-pw").accessToken)
        #expect(ann.isAdmin && ann.deviceId == nil)
        #expect(ann.sessionId != joe.sessionId)

        // The same name in another namespace is another user with another password.
        let acme = try await f.sessions.login(username: "joe", password: "other-pw", namespace: "acme")
        #expect(try f.sessions.authenticate(accessToken: acme.accessToken).namespace == "acme")
        #expect(await f.loginRefusal("joe", "joe-pw", namespace: "acme") == .invalidCredentials)

        let issued = try #require(try f.log.events(EventQuery(stream: "session/\(joe.sessionId.uuidString)")).first)
        #expect(issued.type == TokenIssued.type && issued.actor == "joe")
        let event = try #require(try TokenIssued.decode(issued))
        #expect(event.reason == .login && event.deviceId == "phone" && event.accessTokenHash.count == 64)
        let json = String(decoding: try #require(EventCatalogue.json(issued)), as: UTF8.self)
        #expect(json.contains(#""accessExpiresAt":"2026-01-01T01:00:00.000Z""#), "\(json)")
        #expect(json.contains(#""reason":"login""#) && json.contains(#""deviceId":"phone""#))

        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe", deviceId: "phone"))
        #expect(audit.map(\.what) == [.loggedIn])
        #expect(audit.first?.sessionId == joe.sessionId)
        #expect(
            audit.first?.detail == "joe logged in from device phone (session \(joe.sessionId.uuidString.lowercased()))")
    }

    @Test func wrongPasswordsUnknownUsersAndUsersWithoutPasswordAreTheSameRefusalRecordedForUsersOnly() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        try await f.addUser("oauth", password: nil)

        #expect(await f.loginRefusal("joe", "JOE-PW", deviceId: "d1", from: "192.0.2.7") == .invalidCredentials)
        #expect(await f.loginRefusal("nobody", "x") == .invalidCredentials)
        #expect(await f.loginRefusal("joe", "joe-pw", namespace: "nowhere") == .invalidCredentials)
        #expect(await f.loginRefusal("oauth", "x") == .invalidCredentials)
        #expect(await f.loginRefusal("joe", "") == .invalidCredentials)
        #expect(await f.loginRefusal("a\u{0}b", "x") == .invalidCredentials)

        let failures = try f.log.events(EventQuery(type: LoginFailed.type)).map {
            try #require(try LoginFailed.decode($0))
        }
        #expect(
            failures == [
                LoginFailed(user: "joe", deviceId: "d1", reason: .wrongPassword, clientAddress: "192.0.2.7"),
                LoginFailed(user: "oauth", deviceId: nil, reason: .noPassword),
                LoginFailed(user: "joe", deviceId: nil, reason: .wrongPassword),
            ])
        #expect(try f.log.events(EventQuery(stream: "logins/joe")).count == 2)
        #expect(try f.log.events(EventQuery(type: TokenIssued.type)).isEmpty)
        #expect(AuthenticationError.invalidCredentials.description == "invalid user name or password")

        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe"))
        #expect(audit.map(\.what) == [.userCreated, .loginFailed, .loginFailed])
        #expect(audit[1].detail == #"login as "joe" failed from device d1 (address 192.0.2.7): wrong password"#)
        #expect(audit[1].deviceId == "d1")
        #expect(audit[2].detail == #"login as "joe" failed: wrong password"#)
    }

    @Test func fourHundredFailedLoginsForNamesNoUserHasRecordNothing() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let head = f.log.head
        for i in 0..<400 {
            let address = "198.51.\(i / 200).\(i % 200)"
            #expect(
                await f.loginRefusal(i % 2 == 0 ? "ghost" : "ghost-\(i)", "guess", from: address) == .invalidCredentials
            )
        }
        for namespace in ["nowhere", "other"] {
            #expect(
                await f.loginRefusal("joe", "joe-pw", namespace: namespace, from: "203.0.113.1") == .invalidCredentials)
        }
        #expect(f.log.head == head)
    }

    @Test func failuresFromOneAddressWaitGrowingDelaysWhileOtherAddressesLogIn() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        try await f.addUser("ann", password: "ann-pw")
        try await f.addUser("joe", password: "joe-pw", namespace: "acme")
        let attacker = "203.0.113.66"
        for _ in 0..<5 {
            #expect(await f.loginRefusal("joe", "guess", from: attacker) == .invalidCredentials)
        }
        let head = f.log.head
        #expect(await f.loginRefusal("joe", "joe-pw", from: attacker) == .throttled(retryAfter: 1))
        #expect(await f.loginRefusal("JOE", "guess", from: attacker) == .throttled(retryAfter: 1))
        #expect(f.log.head == head, "a throttled attempt writes nothing")
        // joe from anywhere else, other users and other namespaces are not affected.
        _ = try await f.sessions.login(username: "joe", password: "joe-pw", clientAddress: "192.0.2.1")
        _ = try await f.sessions.login(username: "ann", password: "ann-pw", clientAddress: attacker)
        _ = try await f.sessions.login(username: "joe", password: "joe-pw", namespace: "acme", clientAddress: attacker)

        // Each further failure doubles the wait.
        var waits: [Int] = []
        for _ in 0..<4 {
            guard case .throttled(let wait) = await f.loginRefusal("joe", "guess", from: attacker) else {
                Issue.record("not throttled")
                return
            }
            waits.append(wait)
            f.t.clock.advance(seconds: Double(wait))
            #expect(await f.loginRefusal("joe", "guess", from: attacker) == .invalidCredentials)
        }
        #expect(waits == [1, 2, 4, 8])
        // Once the wait is over, the right password works and the count starts again.
        #expect(await f.loginRefusal("joe", "joe-pw", from: attacker) == .throttled(retryAfter: 16))
        f.t.clock.advance(seconds: 16)
        _ = try await f.sessions.login(username: "joe", password: "joe-pw", clientAddress: attacker)
        for _ in 0..<4 { #expect(await f.loginRefusal("joe", "guess", from: attacker) == .invalidCredentials) }
        #expect(AuthenticationError.throttled(retryAfter: 900).description.contains("900 seconds"))
    }

    @Test func oneAddressTryingManyNamesWaitsButNotOthers() async throws {
        let f = try Fixture(policy: Sessions.Policy(failedLoginsPerAddress: 3))
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        for name in ["amy", "bob", "cy"] {
            #expect(await f.loginRefusal(name, "guess", from: "203.0.113.9") == .invalidCredentials)
        }
        #expect(await f.loginRefusal("joe", "joe-pw", from: "203.0.113.9") == .throttled(retryAfter: 1))
        f.t.clock.advance(seconds: 1)
        #expect(await f.loginRefusal("dan", "guess", from: "203.0.113.9") == .invalidCredentials)
        #expect(await f.loginRefusal("eve", "guess", from: "203.0.113.9") == .throttled(retryAfter: 2))
        _ = try await f.sessions.login(username: "joe", password: "joe-pw", clientAddress: "203.0.113.10")
        // Forgotten an hour after the last failure.
        f.t.clock.advance(seconds: 3600)
        _ = try await f.sessions.login(username: "joe", password: "joe-pw", clientAddress: "203.0.113.9")
    }

    @Test func theThrottleIsNotALockInTheLog() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        for _ in 0..<5 { _ = await f.loginRefusal("joe", "guess") }
        #expect(await f.loginRefusal("joe", "joe-pw") == .throttled(retryAfter: 1))
        // A restarted server (a new Sessions on the same log) does not inherit it.
        let restarted = Sessions(log: f.log)
        _ = try await restarted.login(username: "joe", password: "joe-pw")
        try await f.log.rebuild([SessionsProjection.name])
        _ = try await restarted.login(username: "joe", password: "joe-pw")
    }

    @Test func concurrentGuessesFromOneAddressAreCountedBeforeTheyAreChecked() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let outcomes = await withTaskGroup(of: AuthenticationError?.self) { group in
            for i in 0..<12 {
                group.addTask {
                    await refusal {
                        try await f.sessions.login(username: "joe", password: "guess \(i)", clientAddress: "192.0.2.5")
                    }
                }
            }
            return await group.reduce(into: [AuthenticationError?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .invalidCredentials }.count == 5)
        #expect(outcomes.filter { $0 == .throttled(retryAfter: 1) }.count == 7)
        #expect(try f.log.events(EventQuery(type: LoginFailed.type)).count == 5)
    }

    @Test func tokensExpireOnTheLogsClock() async throws {
        let f = try Fixture(policy: Sessions.Policy(accessTokenLifetime: 600, refreshTokenLifetime: 3600))
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let tokens = try await f.sessions.login(username: "joe", password: "joe-pw")
        f.t.clock.advance(seconds: 599)
        _ = try f.sessions.authenticate(accessToken: tokens.accessToken)
        f.t.clock.advance(seconds: 1)
        #expect(await f.accessRefusal(tokens.accessToken) == .tokenExpired)
        // An expired access token is refreshed with the refresh token, which lasts longer.
        let fresh = try await f.sessions.refresh(refreshToken: tokens.refreshToken)
        #expect(fresh.expiresAt == f.now.addingTimeInterval(600))
        f.t.clock.advance(seconds: 3600)
        #expect(await f.refreshRefusal(fresh.refreshToken) == .tokenExpired)
        #expect(await f.accessRefusal(fresh.accessToken) == .tokenExpired)
    }

    @Test func aRefreshRotatesThePairWithinTheSession() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let first = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "tablet")
        let session = try f.sessions.authenticate(accessToken: first.accessToken).sessionId
        f.t.clock.advance(seconds: 1800)
        let second = try await f.sessions.refresh(refreshToken: first.refreshToken)
        #expect(second.accessToken != first.accessToken && second.refreshToken != first.refreshToken)
        #expect(second.expiresAt == f.now.addingTimeInterval(3600))
        #expect(await f.accessRefusal(first.accessToken) == .tokenRevoked)
        // (Presenting first.refreshToken again would end the session: see the replay test below.)
        let principal = try f.sessions.authenticate(accessToken: second.accessToken)
        #expect(principal.sessionId == session && principal.deviceId == "tablet")
        let third = try await f.sessions.refresh(refreshToken: second.refreshToken)
        #expect(try f.sessions.authenticate(accessToken: third.accessToken).sessionId == session)
        #expect(await f.accessRefusal(second.accessToken) == .tokenRevoked)

        let stream = try f.log.events(EventQuery(stream: "session/\(session.uuidString)"))
        #expect(stream.map(\.type) == ["TokenIssued", "TokenRevoked", "TokenIssued", "TokenRevoked", "TokenIssued"])
        #expect(try TokenRevoked.decode(stream[1])?.reason == .refreshRotation)
        #expect(try TokenIssued.decode(stream[2])?.reason == .refresh)
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe"))
        #expect(audit.map(\.what) == [.userCreated, .loggedIn, .sessionRefreshed, .sessionRefreshed])
        // A refresh token is not an access token, nor the other way round.
        #expect(await f.accessRefusal(third.refreshToken) == .tokenUnknown)
        #expect(await f.refreshRefusal(third.accessToken) == .tokenUnknown)
    }

    @Test func replayingARotatedRefreshTokenRevokesTheWholeSession() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let a = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "phone")
        let other = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "laptop")
        let session = try f.sessions.authenticate(accessToken: a.accessToken).sessionId
        let b = try await f.sessions.refresh(refreshToken: a.refreshToken)
        // Someone replays the rotated refresh token: refused, and the session ends (RFC 6819 5.2.2.3).
        #expect(await f.refreshRefusal(a.refreshToken) == .tokenRevoked)
        #expect(await f.accessRefusal(b.accessToken) == .tokenRevoked)
        #expect(await f.refreshRefusal(b.refreshToken) == .tokenRevoked)
        // The user's other session goes on.
        #expect(try f.sessions.authenticate(accessToken: other.accessToken).deviceId == "laptop")

        let stream = try f.log.events(EventQuery(stream: "session/\(session.uuidString)"))
        #expect(stream.map(\.type) == ["TokenIssued", "TokenRevoked", "TokenIssued", "TokenRevoked"])
        let revoked = try #require(try TokenRevoked.decode(stream[3]))
        #expect(revoked.reason == .refreshReuse && revoked.deviceId == "phone")
        let ended = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).filter { $0.what == .loggedOut }
        #expect(ended.map(\.sessionId) == [session])
        #expect(ended.first?.detail.contains("refresh token it had replaced was presented again") == true)
        // Once ended, replaying again records nothing more.
        let head = f.log.head
        #expect(await f.refreshRefusal(a.refreshToken) == .tokenRevoked)
        #expect(await f.refreshRefusal(b.refreshToken) == .tokenRevoked)
        #expect(f.log.head == head)
        // A rebuilt projection agrees.
        try await f.log.rebuild([SessionsProjection.name])
        #expect(await f.accessRefusal(b.accessToken) == .tokenRevoked)
    }

    @Test func aLogoutRevokesBothTokensOfThatSessionOnly() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let phone = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "phone")
        let laptop = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "laptop")
        try await f.sessions.logout(accessToken: phone.accessToken)
        #expect(await f.accessRefusal(phone.accessToken) == .tokenRevoked)
        #expect(await f.refreshRefusal(phone.refreshToken) == .tokenRevoked)
        #expect(await refusal { try await f.sessions.logout(accessToken: phone.accessToken) } == .tokenRevoked)
        #expect(try f.sessions.authenticate(accessToken: laptop.accessToken).deviceId == "laptop")

        // An expired access token still logs out.
        f.t.clock.advance(seconds: 7200)
        try await f.sessions.logout(accessToken: laptop.accessToken)
        #expect(await f.refreshRefusal(laptop.refreshToken) == .tokenRevoked)

        #expect(await f.accessRefusal("mat_nothing") == .tokenUnknown)
        #expect(await f.refreshRefusal("mrt_nothing") == .tokenUnknown)
        #expect(await refusal { try await f.sessions.logout(accessToken: "mat_nothing") } == .tokenUnknown)

        let logouts = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).filter { $0.what == .loggedOut }
        #expect(logouts.map(\.deviceId) == ["phone", "laptop"])
        #expect(
            try f.log.events(EventQuery(type: TokenRevoked.type)).compactMap { try TokenRevoked.decode($0)?.reason }
                == [.logout, .logout])
    }

    @Test func theRawTokensAppearNowhereInTheLogNorTheDataFile() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        let first = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "phone")
        let second = try await f.sessions.refresh(refreshToken: first.refreshToken)
        let third = try await f.sessions.login(username: "joe", password: "joe-pw")
        try await f.sessions.logout(accessToken: second.accessToken)
        // The random part, without the prefix, so an encoding that dropped the prefix is caught too.
        let secrets = [first, second, third].flatMap { [$0.accessToken, $0.refreshToken] }.map {
            Array($0.utf8.dropFirst(4))
        }
        let events = try f.log.events(EventQuery())
        #expect(events.count == 6)
        for event in events {
            let rendered = Array(EventCatalogue.json(event) ?? Data())
            for secret in secrets {
                #expect(!contains(event.body.bytes, secret), "\(event.type) at \(event.position) holds a token")
                #expect(!contains(rendered, secret))
            }
        }
        let file = try [UInt8](Data(contentsOf: f.log.directory.appendingPathComponent("data.mdb")))
        #expect(file.count > 0)
        for secret in secrets { #expect(!contains(file, secret)) }
    }

    func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first && haystack[i..<i + needle.count].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    @Test func aRebuiltSessionsProjectionEqualsTheInlineOne() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        try await f.addUser("ann", password: "ann-pw", namespace: "acme")
        let joe = try await f.sessions.login(username: "joe", password: "joe-pw", deviceId: "phone")
        _ = try await f.sessions.refresh(refreshToken: joe.refreshToken)
        let ann = try await f.sessions.login(username: "ann", password: "ann-pw", namespace: "acme")
        try await f.sessions.logout(accessToken: ann.accessToken)
        for name in ["joe", "ghost", "ghost"] {
            _ = await f.loginRefusal(name, "guess")
            f.t.clock.advance(seconds: 10)
        }
        let before = try contents(f.log)
        #expect(before["accessTokens"]?.count == 3 && before["sessions"]?.count == 2)
        #expect(before["userSessions"]?.count == 1, "joe's, which did not end")
        #expect(
            SessionsProjection().version == 4,
            "version 1 kept failed logins, version 2 every token, version 3 no index of each user's sessions")
        try await f.log.rebuild([SessionsProjection.name])
        #expect(try contents(f.log) == before)
        let report = try await f.log.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func expiredTokenPairsAreSweptSoTheTablesDoNotGrowWithEachLogin() async throws {
        let f = try Fixture(policy: Sessions.Policy(accessTokenLifetime: 60, refreshTokenLifetime: 600))
        defer { f.remove() }
        try await f.addUser("joe", password: "joe-pw")
        var old: [Sessions.Tokens] = []
        for _ in 0..<20 { old.append(try await f.sessions.login(username: "joe", password: "joe-pw")) }
        let rotated = try await f.sessions.refresh(refreshToken: old[0].refreshToken)
        var rows = try contents(f.log).mapValues(\.count)
        #expect(rows["accessTokens"] == 21 && rows["refreshTokens"] == 21 && rows["sessions"] == 20)
        #expect(rows["userSessions"] == 20)
        #expect(rows["expiries"] == 21)
        // An expired access token whose refresh token still works answers "expired", not "unknown".
        f.t.clock.advance(seconds: 120)
        #expect(await f.accessRefusal(old[1].accessToken) == .tokenExpired)

        // Past every refresh token's expiry, each login sweeps old pairs: the tables shrink back and then
        // hold only the sessions that still work.
        f.t.clock.advance(seconds: 600)
        var sizes: [Int] = []
        var live: [Sessions.Tokens] = []
        for _ in 0..<12 {
            live.append(try await f.sessions.login(username: "joe", password: "joe-pw"))
            sizes.append(try contents(f.log)["accessTokens"]?.count ?? -1)
        }
        // 21 pairs, 4 swept and 1 issued per login, until only this loop's own are left.
        #expect(sizes == [18, 15, 12, 9, 6, 6, 7, 8, 9, 10, 11, 12])
        rows = try contents(f.log).mapValues(\.count)
        #expect(rows["accessTokens"] == 12 && rows["refreshTokens"] == 12, "\(rows)")
        #expect(rows["sessions"] == 12 && rows["expiries"] == 12, "\(rows)")
        #expect(rows["userSessions"] == 12, "only the sessions that still work are joe's: \(rows)")
        // Swept tokens are unknown; the new ones work; a swept rotated refresh token changes nothing.
        #expect(await f.accessRefusal(old[5].accessToken) == .tokenUnknown)
        #expect(await f.refreshRefusal(rotated.refreshToken) == .tokenUnknown)
        let head = f.log.head
        #expect(await f.refreshRefusal(old[0].refreshToken) == .tokenUnknown)
        #expect(f.log.head == head)
        #expect(try f.sessions.authenticate(accessToken: live[0].accessToken).username == "joe")
        _ = try await f.sessions.refresh(refreshToken: live[11].refreshToken)
        // A rebuild sweeps the same pairs at the same events.
        let before = try contents(f.log)
        try await f.log.rebuild([SessionsProjection.name])
        #expect(try contents(f.log) == before)
    }

    /// Every table of the sessions projection, key → value.
    func contents(_ log: EventLog) throws -> [String: [[UInt8]: [UInt8]]] {
        try log.read { reader in
            let state = try reader.projection(SessionsProjection.name)
            var result: [String: [[UInt8]: [UInt8]]] = [:]
            for table in SessionsProjection().tables {
                var rows: [[UInt8]: [UInt8]] = [:]
                try state.scan(table) { key, value in
                    rows[Array(key)] = Array(value)
                    return true
                }
                result[table] = rows
            }
            return result
        }
    }

    @Test func anExternallyVerifiedUserIsAPrincipalWithoutASession() async throws {
        let f = try Fixture()
        defer { f.remove() }
        try await f.addUser("kim", password: nil, isAdmin: true, namespace: "acme")
        let head = f.log.head
        let kim = try #require(try f.sessions.principal(username: "kim", namespace: "acme"))
        #expect(kim.isAdmin && kim.namespace == "acme" && kim.deviceId == nil)
        #expect(kim.sessionId == Sessions.externalSessionId && kim.expiresAt == .distantFuture)
        #expect(try f.sessions.principal(username: "kim", namespace: "default") == nil)
        #expect(try f.sessions.principal(username: "nobody", namespace: "acme") == nil)
        #expect(f.log.head == head)
    }
}

/// The `AuthenticationError` `body` throws; nil when it succeeds or throws something else.
func refusal<T>(_ body: () async throws -> T) async -> AuthenticationError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? AuthenticationError
    }
}
