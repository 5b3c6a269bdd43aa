import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// A password set anew: logins check the new one, and the user's sessions end — all but the one kept.
@Suite struct PasswordChangeTests {
    @Test func theNewPasswordLogsInAndTheUsersSessionsEndButTheOneKept() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe's old password")
        try await f.addUser("ann", password: "ann's password")
        let kept = try await f.sessions.login(username: "joe", password: "joe's old password", deviceId: "phone")
        let ended = try await f.sessions.login(username: "joe", password: "joe's old password", deviceId: "tablet")
        let others = try await f.sessions.login(username: "ann", password: "ann's password")
        let keptSession = try f.sessions.authenticate(accessToken: kept.accessToken).sessionId

        try await Directory(log: f.log).changePassword(
            "joe", to: "joe's new password", keeping: keptSession, actor: "joe")

        #expect(await f.loginRefusal("joe", "joe's old password") == .invalidCredentials)
        #expect(await f.loginRefusal("joe", "joe's new password") == nil)
        #expect(try f.sessions.authenticate(accessToken: kept.accessToken).username == "joe")
        #expect(throws: AuthenticationError.self) { try f.sessions.authenticate(accessToken: ended.accessToken) }
        await #expect(throws: AuthenticationError.self) {
            try await f.sessions.refresh(refreshToken: ended.refreshToken)
        }
        #expect(try f.sessions.authenticate(accessToken: others.accessToken).username == "ann")
        #expect(try await Directory(log: f.log).passwordMatches("joe's new password", user: "joe"))
        #expect(try await !Directory(log: f.log).passwordMatches("joe's old password", user: "joe"))

        // The audit says what happened, and the log holds no password.
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).map(\.detail)
        #expect(audit.contains("password of joe changed"), "\(audit)")
        #expect(
            audit.contains { $0.hasSuffix("of joe from device tablet ended: the password was changed") }, "\(audit)")
        #expect(!audit.contains { $0.contains("from device phone ended") }, "\(audit)")
        let events = try f.log.read { try $0.events(EventQuery(type: PasswordChanged.type)) }
        #expect(events.count == 1)
        #expect(EventCatalogue.json(try #require(events.first)) == Data(#"{"name":"joe"}"#.utf8))
    }

    @Test func anAdministratorsChangeEndsEverySessionAndAnUnknownUserOrAShortPasswordChangesNothing() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe's old password")
        let session = try await f.sessions.login(username: "joe", password: "joe's old password")
        let directory = Directory(log: f.log)
        let head = f.log.head
        await #expect(throws: MusterError.self) { try await directory.changePassword("zed", to: "a new password") }
        await #expect(throws: MusterError.self) { try await directory.changePassword("joe", to: "short") }
        #expect(f.log.head == head)
        #expect(await f.loginRefusal("joe", "joe's old password") == nil)

        try await directory.changePassword("joe", to: "set by ada", actor: "ada")
        #expect(throws: AuthenticationError.self) { try f.sessions.authenticate(accessToken: session.accessToken) }
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).map(\.detail)
        #expect(audit.contains("password of joe changed by ada"), "\(audit)")
    }
}
