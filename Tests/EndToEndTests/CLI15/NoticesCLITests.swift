import EventLogTesting
import Foundation
import Testing

/// `muster notices list|perform|dismiss` through the binary: with automatic user notifications off, a rule that
/// fires hands its notification to the device's app, which has it performed (the inbox gets it) or dismisses it.
@Suite struct NoticesCLITests {
    /// A shop (50 m around 48.87, 2.33) with two rules that fire on entry, always open.
    static let shop = #"""
        {"u_geofences":[{"id":"shop","lat":48.87,"lng":2.33,"radius":0.05,"name":"The shop","rules_actions":[
         {"id":"welcome","rule":{"trigger":"on_entry"},"action":{"notify_user":"Welcome!"}},
         {"id":"coupon","rule":{"trigger":"on_entry"},"action":{"notify_user":"A coupon for you"}}]}]}
        """#

    /// Turns automatic user notifications off, imports the shop and has `user`'s phone enter it; `run` runs a
    /// verb where the notices are acted on, `data` the data directory's options.
    static func handTwoNotices(
        to user: String, data: [String], run: ([String]) async throws -> MusterProcess.Outcome
    ) async throws {
        let off = try await run(["settings", "set", "automaticUserNotifications", "false"])
        try #require(off.status == 0, "\(off)")
        let imported = try await MusterProcess.run(["areas", "import", "-"] + data, stdin: Self.shop)
        try #require(imported.status == 0, "\(imported)")
        let entered = try await run(
            ["location", "--user", user, "--device-id", "phone", "--lat", "48.87", "--lng", "2.33", "--json"])
        try #require(entered.status == 0, "\(entered)")
        let outcomes = try entered.json()["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["fired"] as? Bool } == [true, true], "\(entered)")
        #expect(
            outcomes.allSatisfy { ($0["reason"] as? String)?.contains("handed to the application") == true },
            "\(entered)")
    }

    /// The listed notices' ids by body.
    static func listed(_ outcome: MusterProcess.Outcome) throws -> [String: String] {
        let notices = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]], "\(outcome)")
        return Dictionary(
            uniqueKeysWithValues: notices.compactMap { notice in
                (notice["body"] as? String).flatMap { body in (notice["id"] as? String).map { (body, $0) } }
            })
    }

    @Test func aPerformedNoticeReachesTheInboxOnceAndADismissedOneSendsNothing() async throws {
        let work = try TemporaryDirectory("notices-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        try await Self.handTwoNotices(to: "joe", data: data) { try await MusterProcess.run($0 + data) }
        let inboxBefore = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        #expect(inboxBefore.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(inboxBefore)")

        let list = try await MusterProcess.run(
            ["notices", "list", "--user", "joe", "--device-id", "phone", "--json"] + data)
        #expect(list.status == 0, "\(list)")
        let ids = try Self.listed(list)
        let welcome = try #require(ids["Welcome!"], "\(list)")
        let coupon = try #require(ids["A coupon for you"], "\(list)")
        let table = try await MusterProcess.run(["notices", "list", "--user", "joe", "--device-id", "phone"] + data)
        let rows = table.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.first == ["ID", "ACTION", "KIND", "AREA", "RULE", "TRIGGER", "AT", "TEXT"], "\(table)")
        #expect(
            rows.dropFirst().map { Array($0.prefix(6)) }.contains([
                welcome, "notifyUser", "geofence", "shop", "welcome", "on_entry",
            ]))

        let performed = try await MusterProcess.run(["notices", "perform", welcome, "--user", "joe"] + data)
        #expect(performed.status == 0, "\(performed)")
        #expect(try performed.json()["state"] as? String == "performed")
        let messageId = try #require(try performed.json()["messageId"] as? String, "\(performed)")
        let inbox = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        let messages = try JSONSerialization.jsonObject(with: Data(inbox.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(messages.map { $0["body"] as? String } == ["Welcome!"], "\(inbox)")
        #expect(messages.first?["messageId"] as? String == messageId)

        let dismissed = try await MusterProcess.run(["notices", "dismiss", coupon, "--user", "joe"] + data)
        #expect(dismissed.status == 0, "\(dismissed)")
        #expect(try dismissed.json()["state"] as? String == "dismissed")
        let again = try await MusterProcess.run(["notices", "perform", welcome, "--user", "joe"] + data)
        #expect(again.status == 3, "\(again)")
        #expect(again.stderr.contains("was already performed"), "\(again)")
        let late = try await MusterProcess.run(["notices", "perform", coupon, "--user", "joe"] + data)
        #expect(late.status == 3, "\(late)")
        #expect(late.stderr.contains("was already dismissed"), "\(late)")
        let after = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        let bodies = (try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])?.map {
            $0["body"] as? String
        }
        #expect(bodies == ["Welcome!"], "the dismissed notice sent nothing: \(after)")
        let empty = try await MusterProcess.run(
            ["notices", "list", "--user", "joe", "--device-id", "phone", "--json"] + data)
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(empty)")
        let audit = try await MusterProcess.run(["events", "--json"] + data)
        #expect(audit.stdout.contains(#""type":"AreaNotificationPerformed""#), "\(audit)")
        #expect(audit.stdout.contains(#""type":"AreaNotificationDismissed""#))
    }

    @Test func badIdsAndUsersAreRefusedNamingTheArgument() async throws {
        let work = try TemporaryDirectory("notices-cli-bad")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        try await Self.handTwoNotices(to: "joe", data: data) { try await MusterProcess.run($0 + data) }
        let list = try await MusterProcess.run(
            ["notices", "list", "--user", "joe", "--device-id", "phone", "--json"] + data)
        let welcome = try #require(try Self.listed(list)["Welcome!"], "\(list)")

        let notUUID = try await MusterProcess.run(["notices", "perform", "welcome", "--user", "joe"] + data)
        #expect(notUUID.status == 2, "\(notUUID)")
        #expect(notUUID.stderr.contains("ID welcome: is not a notice id; expected a UUID"), "\(notUUID)")
        let unknown = UUID().uuidString.lowercased()
        let missing = try await MusterProcess.run(["notices", "dismiss", unknown, "--user", "joe"] + data)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("joe has no area notification \(unknown)"), "\(missing)")
        let stranger = try await MusterProcess.run(["notices", "perform", welcome, "--user", "kim"] + data)
        #expect(stranger.status == 2, "another user's notice is not found: \(stranger)")
        #expect(stranger.stderr.contains("kim has no area notification"), "\(stranger)")
        let noUser = try await MusterProcess.run(["notices", "list", "--device-id", "phone"] + data)
        #expect(noUser.status == 2, "\(noUser)")
        #expect(noUser.stderr.contains("--user"), "\(noUser)")
        let stillThere = try await MusterProcess.run(
            ["notices", "list", "--user", "joe", "--device-id", "phone", "--json"] + data)
        #expect(try Self.listed(stillThere).count == 2, "the refusals changed nothing: \(stillThere)")
    }

    @Test func theVerbsActOnAServerAsTheLoggedInUser() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("notices-remote")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        try await Self.handTwoNotices(to: "ada", data: server.data) { try await ada.run($0) }

        let remote = try await ada.run(["notices", "list", "--device-id", "phone", "--json"])
        #expect(remote.status == 0, "\(remote)")
        let local = try await ada.run(
            ["notices", "list", "--user", "ada", "--device-id", "phone", "--json"] + server.data)
        #expect(remote.stdout == local.stdout, "the same notices over HTTP as from the data directory")
        let ids = try Self.listed(remote)
        let welcome = try #require(ids["Welcome!"], "\(remote)")
        let coupon = try #require(ids["A coupon for you"], "\(remote)")

        let performed = try await ada.run(["notices", "perform", welcome, "--user", "ada"])
        #expect(performed.status == 0, "\(performed)")
        let messageId = try #require(try performed.json()["messageId"] as? String, "\(performed)")
        let inbox = try await ada.run(["inbox", "--json"])
        let messages = try JSONSerialization.jsonObject(with: Data(inbox.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(messages.map { $0["messageId"] as? String } == [messageId], "\(inbox)")
        #expect(messages.first?["body"] as? String == "Welcome!")

        let again = try await ada.run(["notices", "perform", welcome])
        #expect(again.status == 3, "\(again)")
        #expect(again.stderr.contains("was already performed"), "\(again)")
        let dismissed = try await ada.run(["notices", "dismiss", coupon])
        #expect(dismissed.status == 0, "\(dismissed)")
        #expect(try dismissed.json()["state"] as? String == "dismissed")
        let twice = try await ada.run(["notices", "dismiss", coupon])
        #expect(twice.status == 3, "\(twice)")
        let notUUID = try await ada.run(["notices", "dismiss", "coupon"])
        #expect(notUUID.status == 2, "\(notUUID)")
        #expect(notUUID.stderr.contains("ID coupon: is not a notice id"), "\(notUUID)")
        let unknown = try await ada.run(["notices", "perform", UUID().uuidString])
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("ada has no area notification"), "\(unknown)")
        let someoneElse = try await ada.run(["notices", "list", "--user", "joe", "--device-id", "phone"])
        #expect(someoneElse.status == 2, "\(someoneElse)")
        #expect(someoneElse.stderr.contains("--user joe"), "\(someoneElse)")
        let inboxAfter = try await ada.run(["inbox", "--json"])
        let after = try JSONSerialization.jsonObject(with: Data(inboxAfter.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(after.count == 1, "one message: the dismissed notice sent nothing: \(inboxAfter)")
        #expect(await server.stop() == 0)
    }
}
