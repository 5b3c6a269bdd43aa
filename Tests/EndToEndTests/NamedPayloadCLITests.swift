import EventLogTesting
import Foundation
import Testing

/// `muster payloads`, `requests`, sending by `payloadName` and `respond --request` through the binary.
@Suite struct NamedPayloadCLITests {
    @Test func namedPayloadsAreStoredReadAndSentByName() async throws {
        let work = try TemporaryDirectory("named-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)

        let put = try await MusterProcess.run(
            ["payloads", "put", "GetMyFavoriteColor", "-"] + data, stdin: NotificationsCLITests.payload)
        #expect(put.status == 0, "\(put)")
        #expect(try put.json()["name"] as? String == "GetMyFavoriteColor")
        #expect(try put.json()["replaced"] as? Bool == false)
        let get = try await MusterProcess.run(["payloads", "get", "GetMyFavoriteColor"] + data)
        #expect(get.status == 0, "\(get)")
        #expect(get.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == NotificationsCLITests.payload)

        let missing = try await MusterProcess.run(["payloads", "get", "Nope"] + data)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("Nope"))
        let invalid = try await MusterProcess.run(
            ["payloads", "put", "Bad", "--json", #"{"responseTopic":"x","fields":[]}"#] + data)
        #expect(invalid.status == 2, "\(invalid)")
        let errors = try #require(try invalid.json()["errors"] as? [[String: Any]])
        #expect(errors.first?["field"] as? String == "payload.responseTopic")

        let unknownName = try await MusterProcess.run(
            ["send", "--to", "joe", "--title", "T", "--body", "B", #"{"responseTopic":"/a/b/c","payloadName":"Nope"}"#]
                + data)
        #expect(unknownName.status == 2, "\(unknownName)")
        #expect(unknownName.stderr.contains("Nope"))

        let sent = try await MusterProcess.run(
            [
                "send", "--to", "joe", "--title", "Example", "--body", "Ask",
                #"{"responseTopic":"/a/b/c","payloadName":"GetMyFavoriteColor"}"#,
            ] + data)
        #expect(sent.status == 0, "\(sent)")
        let id = try #require((try sent.json()["messageIds"] as? [String])?.first)
        let respond = ["respond", id, "--user", "joe", "--device-id", "d1"]
        let wrong = try await MusterProcess.run(respond + ["--json", #"{"simpleDropList":"Purple"}"#] + data)
        #expect(wrong.status == 2, "\(wrong)")
        #expect((try wrong.json()["errors"] as? [[String: Any]])?.first?["field"] as? String == "simpleDropList")
        let answer = try await MusterProcess.run(respond + [#"{"simpleDropList":"Green"}"#] + data)
        #expect(answer.status == 0, "\(answer)")
        #expect((try answer.json()["values"] as? [String: Any])?["simpleDropList"] as? String == "Green")
    }

    @Test func namedPayloadsAreListedByNameOnADataDirectoryAndOnAServer() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("named-list")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let empty = try await ada.run(["payloads", "list", "--json"])
        #expect(empty.status == 0 && empty.stdout == "[]\n", "\(empty)")
        for (name, payload) in [
            ("Zebra", #"{"responseTopic":"/z","fields":[]}"#), ("Colour", NotificationsCLITests.payload),
        ] {
            let put = try await ada.run(["payloads", "put", name, payload])
            #expect(put.status == 0, "\(put)")
        }
        let table = try await ada.run(["payloads", "list"])
        #expect(table.lines.first == "NAME    RESPONSE TOPIC  FIELDS", "\(table)")
        #expect(table.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == ["Colour", "Zebra"])
        #expect(table.lines.last?.hasSuffix("/z              0") == true, "\(table)")
        let listed = try await ada.run(["payloads", "list", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(entries.compactMap { $0["name"] as? String } == ["Colour", "Zebra"])
        #expect((entries.last?["payload"] as? [String: Any])?["responseTopic"] as? String == "/z")
        // The same from the server's data directory; and any user of the namespace may list them, as read them.
        for format in [[], ["--json"]] {
            let local = try await MusterProcess.run(["payloads", "list"] + format + server.data)
            let remote = try await ada.run(["payloads", "list"] + format)
            #expect(local.status == 0 && local.stdout == remote.stdout, "\(local)\n\(remote)")
        }
        let added = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "secret-joe\n")
        #expect(added.status == 0, "\(added)")
        let joe = Terminal(work.url.appendingPathComponent("joe/session.json"))
        try await joe.login(server.base, "joe", password: "secret-joe")
        #expect(try await joe.run(["payloads", "list", "--json"]).stdout == listed.stdout)

        // Removed by an administrator over HTTP, and by the operator on the data directory; not by joe.
        let byJoe = try await joe.run(["payloads", "remove", "Zebra"])
        #expect(byJoe.status != 0 && byJoe.stderr.contains("administrator"), "\(byJoe)")
        let remote = try await ada.run(["payloads", "remove", "Zebra"])
        #expect(remote.status == 0 && remote.stdout == #"{"removed":"Zebra"}"# + "\n", "\(remote)")
        let local = try await MusterProcess.run(["payloads", "remove", "Colour"] + server.data)
        #expect(local.status == 0, "\(local)")
        #expect(try await ada.run(["payloads", "list", "--json"]).stdout == "[]\n")
        let twice = try await ada.run(["payloads", "remove", "Colour"])
        #expect(twice.status != 0 && twice.stderr.contains("no named payload \"Colour\""), "\(twice)")
        #expect(await server.stop() == 0)
    }

    @Test func requestsArePutListedAndAnsweredUnasked() async throws {
        let work = try TemporaryDirectory("requests-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        let fields = #"{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}"#
        let put = try await MusterProcess.run(
            ["requests", "put", "report", "--title", "Report", "--body", "Tell us", "--topic", "/faults/new", fields]
                + data)
        #expect(put.status == 0, "\(put)")
        #expect(try put.json()["responseTopic"] as? String == "/faults/new")
        let badTopic = try await MusterProcess.run(
            ["requests", "put", "bad", "--title", "T", "--body", "B", "--topic", "faults", fields] + data)
        #expect(badTopic.status == 2, "\(badTopic)")

        let list = try await MusterProcess.run(["requests", "list", "--json"] + data)
        #expect(list.status == 0, "\(list)")
        let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.map { $0["name"] as? String } == ["report"])
        #expect(rows?.first?["title"] as? String == "Report")

        let respond = ["respond", "--request", "report", "--user", "joe", "--device-id", "d1"]
        let empty = try await MusterProcess.run(respond + ["--json", "{}"] + data)
        #expect(empty.status == 2, "\(empty)")
        #expect((try empty.json()["errors"] as? [[String: Any]])?.first?["field"] as? String == "what")
        let answer = try await MusterProcess.run(respond + [#"{"what":"pump 3"}"#] + data)
        #expect(answer.status == 0, "\(answer)")
        #expect(try answer.json()["responseTopic"] as? String == "/faults/new")
        #expect((try answer.json()["values"] as? [String: Any])?["what"] as? String == "pump 3")
        let unknown = try await MusterProcess.run(
            ["respond", "--request", "nope", "--user", "joe", "--device-id", "d1", "{}"] + data)
        #expect(unknown.status == 2, "\(unknown)")

        let removed = try await MusterProcess.run(["requests", "remove", "report"] + data)
        #expect(removed.status == 0, "\(removed)")
        #expect(try await MusterProcess.run(["requests", "list", "--json"] + data).stdout == "[]\n")
        let gone = try await MusterProcess.run(respond + [#"{"what":"pump 4"}"#] + data)
        #expect(gone.status == 2 && gone.stderr.contains("no request named \"report\""), "\(gone)")
    }
}
