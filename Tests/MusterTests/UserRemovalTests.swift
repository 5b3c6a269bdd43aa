import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// A user removed: their sessions end, their devices are unregistered, they leave their groups and what waits for them
/// is withdrawn, in one append; everyone else keeps theirs, and a new user of the name starts with nothing.
@Suite struct UserRemovalTests {
    @Test func theRemovedUsersSessionsDevicesGroupsAndInboxGoAndNobodyElses() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe's password")
        try await f.addUser("ann", password: "ann's password")
        let directory = Directory(log: f.log)
        try await directory.defineGroup("ops", members: ["joe", "ann"])
        try await directory.defineGroup("night", members: ["joe"])
        for device in ["phone", "tablet"] {
            try await directory.register(
                PushTargetRegistered(user: "joe", deviceId: device, deviceName: device, platform: .fcm, token: "t"))
        }
        try await directory.register(
            PushTargetRegistered(user: "ann", deviceId: "ann-phone", deviceName: "p", platform: .fcm, token: "t"))
        let joes = [
            try await f.sessions.login(username: "joe", password: "joe's password", deviceId: "phone"),
            try await f.sessions.login(username: "joe", password: "joe's password"),
        ]
        let anns = try await f.sessions.login(username: "ann", password: "ann's password")
        let notifications = Notifications(log: f.log)
        _ = try await notifications.send(groups: ["ops"], title: "T", body: "B", payload: colourPayload)
        let head = f.log.head

        let removal = try await directory.removeUser("joe", actor: "ada")

        #expect(removal.name == "joe")
        #expect(removal.sessionsEnded == 2)
        #expect(removal.devicesUnregistered == ["phone", "tablet"])
        #expect(removal.groupsLeft == ["night", "ops"])
        #expect(try directory.user("joe") == nil)
        #expect(try directory.users().map(\.name) == ["ann"])
        for session in joes {
            #expect(throws: AuthenticationError.self) { try f.sessions.authenticate(accessToken: session.accessToken) }
            await #expect(throws: AuthenticationError.self) {
                try await f.sessions.refresh(refreshToken: session.refreshToken)
            }
        }
        #expect(await f.loginRefusal("joe", "joe's password") == .invalidCredentials)
        #expect(try directory.devices(user: "joe").isEmpty)
        #expect(try directory.groups().map(\.members) == [[], ["ann"]])
        #expect(try notifications.inbox(user: "joe").isEmpty)
        // Ann keeps hers.
        #expect(try f.sessions.authenticate(accessToken: anns.accessToken).username == "ann")
        #expect(try directory.devices(user: "ann").map(\.deviceId) == ["ann-phone"])
        #expect(try notifications.inbox(user: "ann").count == 1)
        // One append: the removal, two sessions ended, two devices, two groups.
        #expect(f.log.head == head + 7)
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).filter { $0.position > head }
        #expect(
            audit.map(\.what) == [
                .userRemoved, .loggedOut, .loggedOut, .deviceUnregistered, .deviceUnregistered, .groupLeft, .groupLeft,
            ], "\(audit.map(\.detail))")
        #expect(audit.first?.detail == "user joe removed by ada")
        #expect(audit.contains { $0.detail.hasSuffix("of joe from device phone ended: the user was removed") })
        #expect(audit.contains { $0.detail == "device tablet of joe unregistered: the user was removed" })
    }

    /// A name is its user's in the log for good: their answers, uploads, counters and audit go by it, so nobody
    /// new takes it and inherits them.
    @Test func aRemovedUsersNameIsNotGivenAgain() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        let directory = Directory(log: f.log)
        try await directory.addUser("joe", password: nil)
        try await directory.removeUser("joe")
        let head = f.log.head

        await #expect {
            try await directory.addUser("joe", password: "the new joe's")
        } throws: {
            let error = $0 as? MusterError
            return error?.code == .conflict && error?.field == "username"
                && "\(error!)".contains("was removed") && "\(error!)".contains("choose another name")
        }
        #expect(f.log.head == head, "nothing was recorded")
        #expect(try directory.user("joe") == nil)
        try await directory.addUser("joe2", password: nil)
        #expect(try directory.users().map(\.name) == ["joe2"])
    }

    @Test func anUnknownUserIsNotFoundAndNothingIsWritten() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: nil)
        let head = f.log.head
        let directory = Directory(log: f.log)
        await #expect {
            try await directory.removeUser("zed")
        } throws: { ($0 as? MusterError)?.code == .notFound }
        try await directory.removeUser("joe")
        await #expect {
            try await directory.removeUser("joe")
        } throws: { ($0 as? MusterError)?.code == .notFound }
        #expect(f.log.head == head + 1)
    }

    /// Data directories from before names were compared case-folded may hold two users whose names fold alike; the
    /// first one's removal hands the login's key to the other.
    @Test func aLoginByAFoldedNameFindsTheOtherUserOnceTheFirstIsRemoved() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        try await f.addUser("Joe", password: "the first Joe's")
        try await f.addUser("joe", password: "the second joe's")
        #expect(await f.loginRefusal("JOE", "the first Joe's") == nil)

        try await Directory(log: f.log).removeUser("Joe")

        #expect(await f.loginRefusal("JOE", "the first Joe's") == .invalidCredentials)
        #expect(await f.loginRefusal("JOE", "the second joe's") == nil)
    }
}
