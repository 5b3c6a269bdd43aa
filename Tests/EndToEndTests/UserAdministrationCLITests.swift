import EventLogTesting
import Foundation
import Testing

/// `muster users set` and `users remove` (and `groups remove`): an administrator acts on a server, an operator on its
/// data directory, with the same outcome.
@Suite struct UserAdministrationCLITests {
    @Test func aProfileIsChangedOnAServerAndOnItsDataDirectory() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("user-set-cli")
        defer { work.remove() }
        let (ada, joe) = try await Terminal.adaAndJoe(on: server, in: work)

        let made = try await ada.run(["users", "set", "joe", "--admin", "--tz", "Europe/Paris", "--email", "j@x.org"])
        #expect(made.status == 0, "\(made)")
        #expect(try made.json()["isAdmin"] as? Bool == true && made.json()["timeZone"] as? String == "Europe/Paris")
        #expect(try await joe.run(["users", "list"]).status == 0, "joe administers now")
        let role = try await joe.run(["users", "set", "joe", "--no-admin"])
        #expect(role.status != 0 && role.stderr.contains("another administrator can"), "\(role)")
        #expect(try await ada.run(["users", "set", "joe", "--no-admin"]).status == 0)
        let notAnymore = try await joe.run(["users", "list"])
        #expect(notAnymore.status != 0 && notAnymore.stderr.contains("administrator"), "\(notAnymore)")
        let own = try await joe.run(["users", "set", "joe", "--phone", "112"])
        #expect(own.status == 0, "\(own)")
        #expect(try own.json()["phone"] as? String == "112")
        let nothing = try await ada.run(["users", "set", "joe"])
        #expect(nothing.status == 2 && nothing.stderr.contains("nothing to change"), "\(nothing)")

        // On the data directory: the same JSON as the server's list shows.
        let local = try await MusterProcess.run(["users", "set", "joe", "--email", ""] + server.data)
        #expect(local.status == 0, "\(local)")
        #expect(try local.json()["email"] == nil && local.json()["phone"] as? String == "112")
        let listed = try await ada.run(["users", "list", "--json"])
        #expect(!listed.stdout.contains("j@x.org"), "\(listed)")
        let audit = try await ada.run(["audit", "--user", "joe"])
        #expect(audit.stdout.contains("user joe changed by ada (time zone Europe/Paris, administrator)"), "\(audit)")
        #expect(audit.stdout.contains("user joe changed by ada (time zone Europe/Paris)"), "\(audit)")
        #expect(audit.stdout.contains("user joe changed by cli (time zone Europe/Paris)"), "\(audit)")
        #expect(await server.stop() == 0)
    }

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

        // The name stays the removed joe's.
        let again = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "the-new-joe\n")
        #expect(again.status == 3 && again.stderr.contains("choose another name"), "\(again)")

        // On the data directory, as its operator: the server's session of jim ends there too.
        let jim = try await ada.run(["users", "add", "jim", "--password-stdin"], stdin: "jims-password\n")
        #expect(jim.status == 0, "\(jim)")
        try await joe.login(server.base, "jim", password: "jims-password")
        let local = try await MusterProcess.run(["users", "remove", "jim"] + server.data)
        #expect(local.status == 0, "\(local)")
        #expect(try await joe.run(["inbox"]).status == 1)
        let audit = try await ada.run(["audit", "--user", "joe", "--json"])
        #expect(audit.stdout.contains("user joe removed by ada"), "\(audit)")
        let jims = try await ada.run(["audit", "--user", "jim", "--json"])
        #expect(jims.stdout.contains("user jim removed by cli"), "\(jims)")
        let events = try await MusterProcess.run(["events", "--type", "UserRemoved", "--json"] + server.data)
        #expect(events.lines.count == 2, "\(events)")
        #expect(await server.stop() == 0)
    }

    /// Logged in to another namespace, `--namespace default` names the default namespace: refused, not quietly taken
    /// for the login's (a removal there would have struck a namesake).
    @Test func aNamespaceOtherThanTheLoginsIsRefusedTheDefaultOneToo() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("namespace-cli")
        defer { work.remove() }
        for (user, namespace) in [("eve", "north"), ("joe", "north"), ("joe", "default")] {
            let added = try await MusterProcess.run(
                ["users", "add", user, "--admin", "--password-stdin", "--namespace", namespace] + server.data,
                stdin: "secret-\(user)\n")
            try #require(added.status == 0, "\(added)")
        }
        let eve = Terminal(work.url.appendingPathComponent("eve/session.json"))
        let login = try await eve.run(
            ["login", "--server", server.base.absoluteString, "eve", "--namespace", "north", "--password-stdin"],
            stdin: "secret-eve\n")
        try #require(login.status == 0, "\(login)")

        for namespace in ["default", "south"] {
            let refused = try await eve.run(["users", "remove", "joe", "--namespace", namespace])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("--namespace \(namespace): the login is in namespace north"), "\(refused)")
        }
        let north = try await eve.run(["users", "list", "--namespace", "north", "--json"])
        #expect(north.status == 0 && north.stdout.contains(#""name":"joe""#), "\(north)")
        let both = try await MusterProcess.run(["users", "list", "--json"] + server.data)
        #expect(both.stdout.contains(#""name":"joe""#), "the default namespace's joe is still there: \(both)")
        #expect(await server.stop() == 0)
    }

    @Test func aSessionIsListedAndEndedOnAServerAndOnItsDataDirectory() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("sessions-cli")
        defer { work.remove() }
        let (ada, joe) = try await Terminal.adaAndJoe(on: server, in: work)
        let phone = try await server.login("joe", password: "secret-joe")

        let own = try await joe.run(["sessions", "list", "--json"])
        #expect(own.status == 0, "\(own)")
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [[String: Any]])
        #expect(sessions.count == 2)
        let other = try #require(sessions.first { $0["isCurrent"] as? Bool == false }?["sessionId"] as? String)
        let table = try await ada.run(["sessions", "list", "--user", "joe"])
        #expect(table.lines.first?.hasPrefix("SESSION") == true && table.lines.count == 3, "\(table)")

        let ended = try await joe.run(["sessions", "end", other])
        #expect(ended.status == 0 && ended.stdout == #"{"ended":"\#(other)"}"# + "\n", "\(ended)")
        #expect(try await server.send("GET", "api/v1/inbox", token: phone).status == 401)
        let twice = try await joe.run(["sessions", "end", other])
        #expect(twice.status == 2 && twice.stderr.contains("no open session"), "\(twice)")

        // On the data directory, as its operator: joe's terminal is logged out there.
        let local = try await MusterProcess.run(["sessions", "list", "--user", "joe", "--json"] + server.data)
        let left = try #require(
            (try JSONSerialization.jsonObject(with: Data(local.stdout.utf8)) as? [[String: Any]])?.first?["sessionId"]
                as? String)
        #expect(try await MusterProcess.run(["sessions", "end", left] + server.data).status == 0)
        let out = try await joe.run(["inbox"])
        #expect(out.status == 1 && out.stderr.contains("log in again"), "\(out)")
        // Everyone's: on the data directory without --user, over HTTP with --all for an administrator only.
        func users(_ result: MusterProcess.Outcome) throws -> [String] {
            try (JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? [])
                .compactMap { $0["user"] as? String }
        }
        try await joe.login(server.base, "joe", password: "secret-joe")
        let everyone = try await MusterProcess.run(["sessions", "list", "--json"] + server.data)
        #expect(try users(everyone) == ["ada", "joe"], "\(everyone)")
        let all = try await ada.run(["sessions", "list", "--all", "--json"])
        #expect(all.status == 0, "\(all)")
        #expect(try users(all) == ["ada", "joe"], "\(all)")
        let notJoes = try await joe.run(["sessions", "list", "--all"])
        #expect(notJoes.status == 1 && notJoes.stderr.contains("every user's"), "\(notJoes)")
        let both = try await ada.run(["sessions", "list", "--all", "--user", "joe"])
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both)")
        #expect(await server.stop() == 0)
    }
}
