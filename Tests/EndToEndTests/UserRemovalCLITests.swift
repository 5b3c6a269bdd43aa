import EventLogTesting
import Foundation
import Testing

/// `muster users remove` (and `groups remove`): an administrator removes a user on a server, an operator on its data
/// directory; the removed user's logins end either way.
@Suite struct UserRemovalCLITests {
    @Test func aRemovedUsersLoginEndsOnAServerAndOnItsDataDirectory() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("user-removal-cli")
        defer { work.remove() }
        let (ada, joe) = try await Terminal.adaAndJoe(on: server, in: work)
        let groups = try await ada.run(["groups", "add", "ops", "--members", "joe"])
        try #require(groups.status == 0, "\(groups)")

        let removed = try await ada.run(["users", "remove", "joe"])
        #expect(removed.status == 0, "\(removed)")
        #expect(try removed.json()["name"] as? String == "joe")
        #expect(try removed.json()["sessionsEnded"] as? Int == 1)
        #expect(try removed.json()["groupsLeft"] as? [String] == ["ops"])
        let ended = try await joe.run(["inbox"])
        #expect(ended.status == 1 && ended.stderr.contains("log in again"), "\(ended)")
        let listed = try await ada.run(["users", "list"])
        #expect(!listed.stdout.contains("joe"), "\(listed)")
        let group = try await ada.run(["groups", "remove", "ops"])
        #expect(group.status == 0, "\(group)")
        #expect(try await ada.run(["groups", "list", "--json"]).stdout == "[]\n")
        let herself = try await ada.run(["users", "remove", "ada"])
        #expect(herself.status != 0 && herself.stderr.contains("another administrator can"), "\(herself)")
        let nobody = try await ada.run(["users", "remove", "zed"])
        #expect(nobody.status != 0 && nobody.stderr.contains("no user named zed"), "\(nobody)")

        // On the data directory, as its operator: the server's session of the new joe ends there too.
        let again = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "the-new-joe\n")
        #expect(again.status == 0, "\(again)")
        try await joe.login(server.base, "joe", password: "the-new-joe")
        let local = try await MusterProcess.run(["users", "remove", "joe"] + server.data)
        #expect(local.status == 0, "\(local)")
        #expect(try await joe.run(["inbox"]).status == 1)
        let audit = try await ada.run(["audit", "--user", "joe", "--json"])
        #expect(audit.stdout.contains("user joe removed by ada"), "\(audit)")
        #expect(audit.stdout.contains("user joe removed by cli"), "\(audit)")
        let events = try await MusterProcess.run(["events", "--type", "UserRemoved", "--json"] + server.data)
        #expect(events.lines.count == 2, "\(events)")
        #expect(await server.stop() == 0)
    }
}
