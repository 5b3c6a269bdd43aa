import EventLogTesting
import Foundation
import Testing

/// `muster send`, `inbox`, `respond` and `listen` through the binary.
@Suite struct NotificationsCLITests {
    /// The seed's opening example payload.
    static let payload = """
        {
            "responseTopic": "/a/b/c",
            "fields": [
                {
                     "id": "simpleDropList",
                     "type": "droplist",
                     "label": "Pick your favorite color",
                     "values": ["Red","Green","Blue"],
                     "default": "Blue"
                }
            ]
        }
        """

    @Test func sendInboxRespondAndListenThroughTheCommandLine() async throws {
        let work = try TemporaryDirectory("notifications-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        #expect(try await MusterProcess.run(["users", "add", "ann"] + data).status == 0)
        #expect(try await MusterProcess.run(["groups", "add", "ops", "--members", "joe,ann"] + data).status == 0)

        let sent = try await MusterProcess.run(
            ["send", "--group", "ops", "--title", "Example", "--body", "Ask for my favorite color", "-"] + data,
            stdin: Self.payload)
        #expect(sent.status == 0, "\(sent)")
        #expect(try sent.json()["recipients"] as? [String] == ["joe", "ann"])
        let ids = try #require(try sent.json()["messageIds"] as? [String])
        #expect(ids.count == 2)

        for (user, id) in zip(["joe", "ann"], ids) {
            let inbox = try await MusterProcess.run(["inbox", user, "--json"] + data)
            let messages = try JSONSerialization.jsonObject(with: Data(inbox.stdout.utf8)) as? [[String: Any]]
            #expect(messages?.count == 1, "\(inbox)")
            #expect(messages?.first?["messageId"] as? String == id)
            #expect(messages?.first?["title"] as? String == "Example")
            #expect(messages?.first?["responseTopic"] as? String == "/a/b/c")
            #expect((messages?.first?["sentAt"] as? String)?.hasSuffix("Z") == true)
        }

        // A listener started before the response, from the log's current end.
        let events = try await MusterProcess.run(["events", "--json"] + data)
        let head = try #require(try events.jsonLines().last?["position"] as? Int)
        let listener = try MusterProcess.Running(["listen", "/a/#", "--from", String(head + 1)] + data)

        let respond = ["respond", ids[0], "--user", "joe", "--device-id", "75e0540bf21638bd"]
        let invalid = try await MusterProcess.run(respond + ["--json", #"{"simpleDropList":"Purple"}"#] + data)
        #expect(invalid.status == 2, "\(invalid)")
        let errors = try #require(try invalid.json()["errors"] as? [[String: Any]])
        #expect(errors.first?["field"] as? String == "simpleDropList")
        #expect(invalid.stderr.contains("Purple"))

        let answer = try await MusterProcess.run(
            respond + ["--device-name", "HTC Desire 310", #"{"simpleDropList":"Green"}"#] + data)
        #expect(answer.status == 0, "\(answer)")
        let response = try answer.json()
        #expect(response["responseTopic"] as? String == "/a/b/c")
        #expect(response["submitValue"] as? Int == 0)
        #expect(response["username"] as? String == "joe")
        #expect(response["deviceId"] as? String == "75e0540bf21638bd")
        #expect(response["deviceName"] as? String == "HTC Desire 310")
        #expect((response["values"] as? [String: Any])?["simpleDropList"] as? String == "Green")

        let line = await listener.waitForLine { $0.contains("simpleDropList") }
        #expect(
            line?.trimmingCharacters(in: .whitespacesAndNewlines)
                == answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(await listener.stop() == 0)

        let joeInbox = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        #expect(joeInbox.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let annInbox = try await MusterProcess.run(["inbox", "ann", "--json"] + data)
        #expect(annInbox.stdout.contains(ids[1]))

        let second = try await MusterProcess.run(respond + ["{}"] + data)
        #expect(second.status == 3, "\(second)")
        #expect(second.stderr.contains("answered already"))
        let unknown = try await MusterProcess.run(
            ["respond", UUID().uuidString, "--user", "joe", "--device-id", "d", "{}"] + data)
        #expect(unknown.status == 2)
        let wrongUser = try await MusterProcess.run(
            ["respond", ids[1], "--user", "joe", "--device-id", "d", "{}"] + data)
        #expect(wrongUser.status == 2)

        let badPayload = try await MusterProcess.run(
            ["send", "--to", "joe", "--title", "T", "--body", "B", "--json", #"{"fields":[]}"#] + data)
        #expect(badPayload.status == 2)
        #expect(try badPayload.json()["errors"] is [[String: Any]])
        let stranger = try await MusterProcess.run(
            ["send", "--to", "zed", "--title", "T", "--body", "B", Self.payload] + data)
        #expect(stranger.status == 2)
        #expect(stranger.stderr.contains("no user named zed"))

        // ann's, unanswered, is withdrawn; joe's, answered, is not — and on refusal nothing is.
        let answered = try await MusterProcess.run(["withdraw", ids[1], ids[0]] + data)
        #expect(answered.status == 3 && answered.stderr.contains("answered already by joe"), "\(answered)")
        #expect(try await MusterProcess.run(["inbox", "ann", "--json"] + data).stdout.contains(ids[1]))
        let withdrawn = try await MusterProcess.run(["withdraw", ids[1]] + data)
        #expect(withdrawn.status == 0, "\(withdrawn)")
        #expect(try withdrawn.json()["withdrawn"] as? [String] == [ids[1]])
        #expect(try await MusterProcess.run(["inbox", "ann", "--json"] + data).stdout == "[]\n")
        let notAnId = try await MusterProcess.run(["withdraw", "twelve"] + data)
        #expect(notAnId.status == 2 && notAnId.stderr.contains("must be a UUID"), "\(notAnId)")

        // Where the send stands: joe answered, ann's was withdrawn.
        let sendId = try #require(try sent.json()["sendId"] as? String)
        let sends = try await MusterProcess.run(["sends", "list", "--json"] + data)
        #expect(sends.status == 0, "\(sends)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(sends.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["sendId"] as? String == sendId, "\(sends.stdout)")
        #expect(listed[0]["answered"] as? Int == 1 && listed[0]["withdrawn"] as? Int == 1, "\(sends.stdout)")
        #expect(listed[0]["pending"] as? Int == 0 && listed[0]["messages"] == nil, "\(sends.stdout)")
        let shown = try await MusterProcess.run(["sends", "show", sendId] + data)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.lines.contains { $0.hasPrefix("joe") && $0.contains(ids[0]) && $0.hasSuffix("answered") })
        #expect(shown.lines.contains { $0.hasPrefix("ann") && $0.contains(ids[1]) && $0.hasSuffix("withdrawn") })
        let noSend = try await MusterProcess.run(["sends", "show", ids[0]] + data)
        #expect(noSend.status == 2 && noSend.stderr.contains("no send \(ids[0])"), "a message's id: \(noSend)")
    }
}
