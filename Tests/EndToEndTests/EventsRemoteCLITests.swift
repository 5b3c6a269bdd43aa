import EventLogTesting
import Foundation
import Testing

/// `muster events` on a running server, as an administrator of muster login: the same lines the server's data
/// directory gives, page after page, and followed live.
@Suite struct EventsRemoteCLITests {
    @Test func eventsOverAServerAreTheLinesOfItsDataDirectory() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("events-remote")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let joeAdded = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "secret-joe\n")
        #expect(joeAdded.status == 0, "\(joeAdded)")

        // Table and JSON lines, whole or filtered: byte for byte what the data directory prints.
        for arguments in [
            ["events"], ["events", "--json"], ["events", "--type", "UserCreated", "--json"],
            ["events", "--stream", "user/joe"], ["events", "--from", "2", "--limit", "1", "--json"],
        ] {
            let remote = try await ada.run(arguments)
            let local = try await MusterProcess.run(arguments + server.data)
            #expect(remote.status == 0 && local.status == 0, "\(remote)\n\(local)")
            #expect(remote.stdout == local.stdout && !remote.stdout.isEmpty, "\(arguments)\n\(remote)\n\(local)")
        }

        // More events than one request of the API returns (10,000): the verb reads page after page.
        let lines = (1...10_050).map { #"{"stream":"bulk","type":"Noted","body":{"n":\#($0)}}"# }
        let file = work.url.appendingPathComponent("bulk.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let imported = try await MusterProcess.run(["import", file.path] + server.data)
        #expect(imported.status == 0, "\(imported)")
        let all = try await ada.run(["events", "--type", "Noted", "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.lines.count == 10_050)
        #expect(all.lines.last?.contains(#""body":{"n":10050}"#) == true, "\(all.lines.last ?? "")")
        let some = try await ada.run(["events", "--type", "Noted", "--limit", "10001", "--json"])
        #expect(some.lines.count == 10_001)

        // Followed: what is recorded from --from on, old or new, until --limit.
        let head = try #require(all.lines.last.flatMap(Self.position))
        async let followed = ada.run(["events", "--follow", "--json", "--from", String(head + 1), "--limit", "2"])
        for n in 1...2 {
            let appended = try await MusterProcess.run(
                ["append", "--stream", "later", "--type", "Later", #"{"n":\#(n)}"#] + server.data)
            #expect(appended.status == 0, "\(appended)")
        }
        let live = try await followed
        #expect(live.status == 0, "\(live)")
        #expect(live.lines.compactMap(Self.position) == [head + 1, head + 2], "\(live)")
        #expect(live.lines.allSatisfy { $0.contains(#""type":"Later""#) })

        // The log is the administrators': joe is refused, and another namespace than the login's too.
        let joe = Terminal(work.url.appendingPathComponent("joe/session.json"))
        try await joe.login(server.base, "joe", password: "secret-joe")
        let refused = try await joe.run(["events"])
        #expect(refused.status != 0 && refused.stderr.contains("administrator"), "\(refused)")
        let elsewhere = try await ada.run(["events", "--namespace", "other"])
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("--namespace other"), "\(elsewhere)")
        #expect(await server.stop() == 0)
    }

    /// The `position` of an event line.
    private static func position(_ line: String) -> UInt64? {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (object?["position"] as? NSNumber)?.uint64Value
    }
}
