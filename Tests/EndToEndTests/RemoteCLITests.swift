import EventLogTesting
import Foundation
import MusterClient
import Testing

/// The domain verbs against a running `muster serve`, as the user of `muster login`.
@Suite struct RemoteCLITests {
    @Test func theDomainVerbsActOnAServerAsTheLoggedInUser() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("remote-cli")
        defer { work.remove() }
        let base = server.base.absoluteString
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        let joe = Terminal(work.url.appendingPathComponent("joe/session.json"))

        // The login is kept with its server, readable by its owner only.
        try await ada.login(server.base, "ada", password: "secret-ada")
        let attributes = try FileManager.default.attributesOfItem(atPath: ada.session.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let stored = try #require(try FileTokenStore(url: ada.session).load())
        #expect(stored.server?.absoluteString == base)
        #expect(stored.username == "ada")
        let whoami = try await ada.run(["whoami", "--json"])
        #expect(whoami.status == 0, "\(whoami)")
        #expect(try whoami.json()["authValid"] as? Bool == true)
        #expect(try whoami.json()["serverType"] as? String == "Internal")
        #expect(try whoami.json()["username"] as? String == "ada")

        // Without --server and --data the stored login's server is used; --server names it.
        let joeAdded = try await ada.run(
            ["users", "add", "joe", "--password-stdin", "--email", "joe@example.com"], stdin: "secret-joe\n")
        #expect(joeAdded.status == 0, "\(joeAdded)")
        #expect(try joeAdded.json()["name"] as? String == "joe")
        #expect(try joeAdded.json()["email"] as? String == "joe@example.com")
        #expect(try joeAdded.json()["hasPassword"] as? Bool == true)
        let annAdded = try await ada.run(
            ["users", "add", "ann", "--server", base, "--password-stdin"], stdin: "secret-ann\n")
        #expect(annAdded.status == 0, "\(annAdded)")
        let taken = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "other-password\n")
        #expect(taken.status == 3, "\(taken)")
        #expect(taken.stderr.contains("already exists"))
        let users = try await ada.run(["users", "list", "--json"])
        let listed = try JSONSerialization.jsonObject(with: Data(users.stdout.utf8)) as? [[String: Any]]
        #expect(listed?.compactMap { $0["name"] as? String }.sorted() == ["ada", "ann", "joe"])
        // The server says who can log in with a password, as the data directory does.
        #expect(listed?.map { $0["hasPassword"] as? Bool } == [true, true, true], "\(users)")
        let table = try await ada.run(["users", "list"])
        #expect(table.lines.dropFirst().allSatisfy { $0.hasSuffix("set") }, "\(table)")

        let group = try await ada.run(["groups", "add", "ops", "--members", "joe,ann"])
        #expect(group.status == 0, "\(group)")
        #expect(group.stdout == #"{"members":["joe","ann"],"name":"ops"}"# + "\n")
        let stranger = try await ada.run(["groups", "add", "odd", "--members", "zed"])
        #expect(stranger.status == 2, "\(stranger)")
        #expect(stranger.stderr.contains("zed"))
        // The same table over HTTP as from the data directory (read while the server runs).
        let remoteGroups = try await ada.run(["groups", "list"])
        let localGroups = try await ada.run(["groups", "list"] + server.data)
        #expect(remoteGroups.status == 0 && localGroups.status == 0, "\(remoteGroups)\n\(localGroups)")
        #expect(remoteGroups.stdout == localGroups.stdout)
        #expect(remoteGroups.stdout.contains("joe,ann"))

        let sent = try await ada.run(
            ["send", "--group", "ops", "--title", "Example", "--body", "Ask for my favorite color", "-"],
            stdin: NotificationsCLITests.payload)
        #expect(sent.status == 0, "\(sent)")
        #expect(try sent.json()["recipients"] as? [String] == ["joe", "ann"])
        let ids = try #require(try sent.json()["messageIds"] as? [String])
        try #require(ids.count == 2)

        // A second login, in a session file of its own.
        try await joe.login(server.base, "joe", password: "secret-joe")
        let device = try await joe.run(
            [
                "devices", "register", "--device-id", "d1", "--device-name", "Joe's phone", "--platform", "apns",
                "--token", "ab12",
            ])
        #expect(device.status == 0, "\(device)")
        #expect(try device.json()["user"] as? String == "joe")
        // Another user's devices are an administrator's to see and unregister (a lost phone).
        let othersDevices = try await joe.run(["devices", "list", "--user", "ann"])
        #expect(othersDevices.status == 1 && othersDevices.stderr.contains("administrator"), "\(othersDevices)")
        let joesDevices = try await ada.run(["devices", "list", "--user", "joe", "--json"])
        #expect(joesDevices.status == 0 && joesDevices.stdout.contains(#""deviceId":"d1""#), "\(joesDevices)")
        let notHis = try await joe.run(["devices", "remove", "--user", "ann", "--device-id", "d1"])
        #expect(notHis.status == 1 && notHis.stderr.contains("administrator"), "\(notHis)")
        let unregistered = try await ada.run(["devices", "remove", "--user", "joe", "--device-id", "d1"])
        #expect(unregistered.status == 0, "\(unregistered)")
        #expect(try await joe.run(["devices", "list", "--json"]).stdout == "[]\n")
        let twice = try await ada.run(["devices", "remove", "--user", "joe", "--device-id", "d1"])
        #expect(twice.status == 2 && twice.stderr.contains("joe has no device d1"), "\(twice)")
        let joesAudit = try await ada.run(["audit", "--user", "joe", "--json"])
        #expect(joesAudit.stdout.contains("device d1 of joe unregistered: by the administrator ada"), "\(joesAudit)")
        let back = try await joe.run(
            [
                "devices", "register", "--device-id", "d1", "--device-name", "Joe's phone", "--platform", "apns",
                "--token", "ab12",
            ])
        #expect(back.status == 0, "\(back)")

        let inbox = try await joe.run(["inbox", "--json"])
        #expect(inbox.status == 0, "\(inbox)")
        #expect(inbox.stdout.contains(ids[0]))
        let localInbox = try await joe.run(["inbox", "joe", "--json"] + server.data)
        #expect(inbox.stdout == localInbox.stdout)
        let othersInbox = try await joe.run(["inbox", "ann"])
        #expect(othersInbox.status == 2)
        #expect(othersInbox.stderr.contains("read by its owner"))

        // A listener from the log's current end, then answers: a refused one, an accepted one, a second one.
        let events = try await MusterProcess.run(["events", "--json"] + server.data)
        let head = try #require(try events.jsonLines().last?["position"] as? Int)
        let listener = try MusterProcess.Running(
            ["listen", "/a/#", "--from", String(head + 1)], environment: ada.environment)
        let respond = ["respond", ids[0], "--device-id", "d1"]
        let invalid = try await joe.run(respond + ["--json", #"{"simpleDropList":"Purple"}"#])
        #expect(invalid.status == 2, "\(invalid)")
        let errors = try #require(try invalid.json()["errors"] as? [[String: Any]])
        #expect(errors.first?["field"] as? String == "simpleDropList")
        #expect(invalid.stderr.contains("Purple"))
        let answer = try await joe.run(respond + [#"{"simpleDropList":"Green"}"#])
        #expect(answer.status == 0, "\(answer)")
        let response = try answer.json()
        #expect(response["username"] as? String == "joe")
        #expect(response["deviceName"] as? String == "Joe's phone")
        #expect((response["values"] as? [String: Any])?["simpleDropList"] as? String == "Green")
        let heard = await listener.waitForLine { $0.contains("simpleDropList") }
        #expect(heard == answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(await listener.stop() == 0, "\(listener.stderr)")
        let again = try await joe.run(respond + ["{}"])
        #expect(again.status == 3, "\(again)")
        #expect(again.stderr.contains("answered already"))
        // ann's, unanswered, is withdrawn by an administrator, not by joe; joe's answered one stays.
        let notJoes = try await joe.run(["withdraw", ids[1]])
        #expect(notJoes.status == 1 && notJoes.stderr.contains("administrator"), "\(notJoes)")
        let refusedTogether = try await ada.run(["withdraw", ids[1], ids[0]])
        #expect(refusedTogether.status == 3 && refusedTogether.stderr.contains("answered already"))
        let stillPending = try await ada.run(["sends", "show", try #require(try sent.json()["sendId"] as? String)])
        #expect(stillPending.stdout.contains("\(ids[1])  pending"), "all or none: \(stillPending.stdout)")
        let withdrawn = try await ada.run(["withdraw", ids[1]])
        #expect(withdrawn.status == 0 && withdrawn.stdout == #"{"withdrawn":["\#(ids[1])"]}"# + "\n", "\(withdrawn)")
        let answered = try await ada.run(["withdraw", ids[0]])
        #expect(answered.status == 3 && answered.stderr.contains("answered already"), "\(answered)")
        // Where the send stands, as an administrator sees it; the same on the data directory.
        let sendId = try #require(try sent.json()["sendId"] as? String)
        let shown = try await ada.run(["sends", "show", sendId, "--json"])
        #expect(shown.status == 0, "\(shown)")
        let states = (try shown.json()["messages"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == ["answered", "withdrawn"], "\(shown.stdout)")
        #expect(shown.stdout == (try await ada.run(["sends", "show", sendId, "--json"] + server.data)).stdout)
        let sends = try await ada.run(["sends", "list", "--json", "--limit", "1"])
        #expect(sends.status == 0 && sends.stdout.contains(sendId), "\(sends)")
        #expect(sends.stdout == (try await ada.run(["sends", "list", "--json", "--limit", "1"] + server.data)).stdout)
        let notJoesToSee = try await joe.run(["sends", "list"])
        #expect(notJoesToSee.status == 1 && notJoesToSee.stderr.contains("administrator"), "\(notJoesToSee)")
        // A page of one, only what is answered; then a second roll call's rest withdrawn at once.
        let page = try await ada.run(["sends", "show", sendId, "--state", "answered", "--limit", "1", "--json"])
        #expect((try page.json()["messages"] as? [[String: Any]])?.map { $0["messageId"] as? String } == [ids[0]])
        #expect(try page.json()["nextFrom"] == nil, "joe's was the only answered one: \(page.stdout)")
        let fromSecond = try await ada.run(["sends", "show", sendId, "--from", "1", "--json"])
        #expect(
            (try fromSecond.json()["messages"] as? [[String: Any]])?.map { $0["messageId"] as? String } == [ids[1]],
            "--from without --limit: every page from there: \(fromSecond.stdout)")
        let badState = try await ada.run(["sends", "show", sendId, "--state", "late"])
        #expect(badState.status == 2 && badState.stderr.contains("--state"), "\(badState)")
        let second = try await ada.run(
            ["send", "--group", "ops", "--title", "Again", "--body", "B", "-"], stdin: NotificationsCLITests.payload)
        let againId = try #require(try second.json()["sendId"] as? String)
        let rest = try await ada.run(["sends", "withdraw", againId])
        #expect(rest.status == 0 && rest.stdout == "withdrew 2 messages of send \(againId), those not answered yet\n")
        let none = try await ada.run(["sends", "withdraw", againId, "--json"])
        #expect(none.stdout == #"{"sendId":"\#(againId)","withdrawn":0}"# + "\n", "\(none)")
        let unknown = try await ada.run(["sends", "withdraw", UUID().uuidString])
        #expect(unknown.status == 2 && unknown.stderr.contains("no send"), "\(unknown)")
        let notJoesToWithdraw = try await joe.run(["sends", "withdraw", againId])
        #expect(notJoesToWithdraw.status == 1 && notJoesToWithdraw.stderr.contains("administrator"))
        let older = try await ada.run(["sends", "list", "--before", againId, "--json"])
        #expect(older.status == 0 && older.stdout.contains(sendId) && !older.stdout.contains(againId), "\(older)")

        // Documents go up and come back byte for byte.
        let photo = work.url.appendingPathComponent("photo.png")
        let bytes = Data(MediaSamples.file("png", size: 3_000))
        try bytes.write(to: photo)
        let put = try await joe.run(["documents", "put", photo.path])
        #expect(put.status == 0, "\(put)")
        let name = try #require(try put.json()["name"] as? String)
        #expect(name.hasPrefix("rcs/image/") && name.hasSuffix(".png"))
        #expect(try put.json()["size"] as? Int == 3_000)
        let copy = work.url.appendingPathComponent("copy.png")
        let get = try await joe.run(["documents", "get", name, "--output", copy.path])
        #expect(get.status == 0, "\(get)")
        #expect(try Data(contentsOf: copy) == bytes)

        // The namespace's push size limit bounds what a push carries, not what may be sent.
        let limit = try await ada.run(["settings", "set", "pushSizeLimit", "300"])
        #expect(
            limit.stdout == #"{"defaultValue":"4096","isDefault":false,"key":"pushSizeLimit","value":"300"}"# + "\n",
            "\(limit)")
        let settings = try await ada.run(["settings", "list", "--json"])
        #expect(settings.stdout == (try await ada.run(["settings", "list", "--json"] + server.data)).stdout)
        let big = NotificationsCLITests.payload.replacingOccurrences(
            of: "Pick your favorite color", with: String(repeating: "x", count: 400))
        let large = try await ada.run(["send", "--to", "joe", "--title", "T", "--body", "B", big])
        #expect(large.status == 0, "\(large)")

        let audit = try await ada.run(["audit", "--user", "joe", "--json"])
        #expect(audit.status == 0, "\(audit)")
        #expect(try audit.jsonLines().contains { $0["what"] as? String == "loggedIn" })
        let localAudit = try await ada.run(["audit", "--user", "joe", "--json"] + server.data)
        #expect(audit.stdout == localAudit.stdout)

        // Logging out forgets the login; the verbs then ask for a new one.
        let logout = try await joe.run(["logout"])
        #expect(logout.status == 0, "\(logout)")
        #expect(!FileManager.default.fileExists(atPath: joe.session.path))
        let afterwards = try await joe.run(["inbox", "--server", base])
        #expect(afterwards.status == 1, "\(afterwards)")
        #expect(afterwards.stderr.contains("log in again: muster login --server \(base)"))
    }

    @Test func aRefusedRefreshTokenMeansLogInAgain() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("remote-cli-refresh")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        // The access token made to look expired, in two copies of the login: the first to refresh rotates
        // the pair, and the server then refuses the other copy's refresh token.
        let store = FileTokenStore(url: ada.session)
        var tokens = try #require(try store.load())
        tokens.expiresAt = Date(timeIntervalSince1970: 0)
        try store.save(tokens)
        let stale = Terminal(work.url.appendingPathComponent("stale.json"))
        try FileTokenStore(url: stale.session).save(tokens)

        let refreshed = try await ada.run(["groups", "list", "--json"])
        #expect(refreshed.status == 0, "\(refreshed)")
        let renewed = try #require(try store.load())
        #expect(renewed.accessToken != tokens.accessToken)
        #expect(renewed.server == tokens.server)

        let refused = try await stale.run(["groups", "list"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("log in again: muster login --server \(server.base.absoluteString) ada"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
    }

    @Test func whereTheVerbsActAndAnUnreachableServer() async throws {
        let work = try TemporaryDirectory("remote-cli-offline")
        defer { work.remove() }
        let someone = Terminal(work.url.appendingPathComponent("session.json"))
        let nowhere = "http://127.0.0.1:1"

        let login = try await someone.run(["login", "--server", nowhere, "ada", "--password-stdin"], stdin: "x\n")
        #expect(login.status == 1, "\(login)")
        #expect(login.stderr.hasPrefix("muster: no answer from \(nowhere)"))
        #expect(login.stderr.split(separator: "\n").count == 1)

        // A stored login to a server that is gone: the verbs go there, and say it does not answer.
        try FileTokenStore(url: someone.session).save(
            AuthTokens(
                accessToken: "a", refreshToken: "r", expiresAt: Date().addingTimeInterval(3_600), username: "ada",
                serverType: .internal, server: URL(string: nowhere)))
        let inbox = try await someone.run(["inbox"])
        #expect(inbox.status == 1, "\(inbox)")
        #expect(inbox.stderr.hasPrefix("muster: no answer from \(nowhere)"))
        #expect(inbox.stderr.split(separator: "\n").count == 1)

        // --data, or MUSTER_DATA, means the data directory, login or not.
        let data = work.url.appendingPathComponent("data").path
        let added = try await someone.run(["users", "add", "solo", "--data", data])
        #expect(added.status == 0, "\(added)")
        #expect(try await someone.run(["users", "list", "--data", data]).stdout.contains("solo"))
        var environment = someone.environment
        environment["MUSTER_DATA"] = data
        let byEnvironment = try await MusterProcess.run(["users", "list"], environment: environment)
        #expect(byEnvironment.status == 0, "\(byEnvironment)")
        #expect(byEnvironment.stdout.contains("solo"))

        let both = try await someone.run(["groups", "list", "--server", nowhere, "--data", data])
        #expect(both.status == 2)
        #expect(both.stderr.contains("not both"))
        let notHTTP = try await someone.run(["groups", "list", "--server", "ftp://example.com"])
        #expect(notHTTP.status == 2)
        #expect(notHTTP.stderr.contains("not an http(s) URL"))
        let otherServer = try await someone.run(["groups", "list", "--server", "http://127.0.0.1:2"])
        #expect(otherServer.status == 1)
        #expect(otherServer.stderr.contains("not logged in to http://127.0.0.1:2; log in again"))
    }
}
