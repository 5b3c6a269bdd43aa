import EventLogTesting
import Foundation
import Testing

/// `muster geotriggers put|list|remove|start|stop` through the binary, on a data directory and on a server.
@Suite struct GeotriggersCLITests {
    /// The seed's geotrigger: one 20 m fence "the lobby" at (48.87, 2.33) and its expression.
    static func lobby(id: String? = "lobby", expression: String = #"\"You have \" + $fencenotificationtype"#)
        -> String
    {
        #"""
        {\#(id.map { #""id":"\#($0)","# } ?? "")"rule":"enter","messageExpression":"\#(expression)",
         "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"lobby",
           "geometry":{"type":"Point","coordinates":[2.33,48.87]},"properties":{"radius":20}}]}}
        """#
    }

    static func located(_ latitude: String, _ data: [String]) async throws -> [String: Any] {
        let located = try await MusterProcess.run(
            ["location", "--user", "joe", "--device-id", "phone", "--lat", latitude, "--lng", "2.33", "--json"] + data)
        #expect(located.status == 0, "\(located)")
        return (try located.json()["geotriggers"] as? [[String: Any]])?.first ?? [:]
    }

    @Test func aStoppedMonitorNotifiesNoOneUntilItIsStartedAgain() async throws {
        let work = try TemporaryDirectory("geotriggers-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        let file = work.url.appendingPathComponent("lobby.json")
        try Data(Self.lobby().utf8).write(to: file)

        let put = try await MusterProcess.run(["geotriggers", "put", file.path, "--name", "Lobby"] + data)
        #expect(put.status == 0, "\(put)")
        #expect(try put.json()["name"] as? String == "Lobby")
        #expect(try put.json()["monitor"] as? String == "running")
        let stop = try await MusterProcess.run(["geotriggers", "stop", "lobby"] + data)
        #expect(stop.status == 0, "\(stop)")
        #expect(stop.stdout == #"{"id":"lobby","monitor":"stopped"}"# + "\n")

        let table = try await MusterProcess.run(["geotriggers", "list"] + data)
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(lines.first == ["ID", "NAME", "RULE", "FENCES", "MONITOR"])
        #expect(lines.dropFirst().first == ["lobby", "Lobby", "enter", "1", "fence", "stopped"])
        let json = try await MusterProcess.run(["geotriggers", "list", "--json"] + data)
        let listed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(listed?.map { $0["monitor"] as? String } == ["stopped"])

        let quiet = try await Self.located("48.87", data)
        #expect(quiet["fired"] as? Bool == false)
        #expect(quiet["reason"] as? String == "the monitor is stopped")
        let audit = try await MusterProcess.run(["audit", "--user", "joe"] + data)
        #expect(audit.stdout.contains("no notification, the monitor is stopped"), "\(audit)")

        #expect(try await MusterProcess.run(["geotriggers", "start", "lobby"] + data).status == 0)
        _ = try await Self.located("48.88", data)
        let entered = try await Self.located("48.87", data)
        #expect(entered["fired"] as? Bool == true, "\(entered)")
        #expect(entered["message"] as? String == "You have entered")

        let events = try await MusterProcess.run(["events", "--json"] + data)
        #expect(events.stdout.contains(#""type":"GeotriggerMonitorStopped""#), "\(events)")
        #expect(events.stdout.contains(#""type":"GeotriggerMonitorStarted""#))

        let removed = try await MusterProcess.run(["geotriggers", "remove", "lobby"] + data)
        #expect(removed.status == 0, "\(removed)")
        let empty = try await MusterProcess.run(["geotriggers", "list", "--json"] + data)
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func badArgumentsAreRefusedNamingThem() async throws {
        let work = try TemporaryDirectory("geotriggers-cli-bad")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let noId = try await MusterProcess.run(["geotriggers", "put", "-"] + data, stdin: Self.lobby(id: nil))
        #expect(noId.status == 2, "\(noId)")
        #expect(noId.stderr.contains("--id: the document has no \"id\""))
        let otherId = try await MusterProcess.run(
            ["geotriggers", "put", "-", "--id", "hall"] + data, stdin: Self.lobby())
        #expect(otherId.status == 2, "\(otherId)")
        #expect(otherId.stderr.contains("--id hall: the document's id is lobby"))
        let notJSON = try await MusterProcess.run(["geotriggers", "put", "-"] + data, stdin: "fences")
        #expect(notJSON.status == 2, "\(notJSON)")
        #expect(notJSON.stderr.contains("FILE -: is not a JSON object"))
        let missing = try await MusterProcess.run(["geotriggers", "put", "/nonexistent/lobby.json"] + data)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("FILE /nonexistent/lobby.json: cannot read it (no such file)"))

        let put = try await MusterProcess.run(
            ["geotriggers", "put", "-", "--id", "hall"] + data, stdin: Self.lobby(id: nil))
        #expect(put.status == 0, "\(put)")
        let changed = try await MusterProcess.run(
            ["geotriggers", "put", "-", "--id", "hall"] + data, stdin: Self.lobby(id: nil, expression: #"\"Hi\""#))
        #expect(changed.status == 3, "\(changed)")
        #expect(changed.stderr.contains("stop it first (muster geotriggers stop hall"))
        let unknown = try await MusterProcess.run(["geotriggers", "start", "nowhere"] + data)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains(#"no geotrigger "nowhere""#))
    }

    @Test func theVerbsActOnAServerAsTheLoggedInAdministrator() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("geotriggers-remote")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")

        let put = try await ada.run(["geotriggers", "put", "-"], stdin: Self.lobby())
        #expect(put.status == 0, "\(put)")
        #expect(try put.json()["monitor"] as? String == "running")
        let stop = try await ada.run(["geotriggers", "stop", "lobby"])
        #expect(stop.stdout == #"{"id":"lobby","monitor":"stopped"}"# + "\n", "\(stop)")
        // The same table over HTTP as from the data directory.
        let remote = try await ada.run(["geotriggers", "list"])
        let local = try await ada.run(["geotriggers", "list"] + server.data)
        #expect(remote.status == 0 && local.status == 0, "\(remote)\n\(local)")
        #expect(remote.stdout == local.stdout)
        #expect(remote.stdout.contains("stopped"))
        let changed = try await ada.run(["geotriggers", "stop", "nowhere"])
        #expect(changed.status == 2, "\(changed)")
        #expect(changed.stderr.contains(#"no geotrigger "nowhere""#))
        let start = try await ada.run(["geotriggers", "start", "lobby"])
        #expect(start.stdout == #"{"id":"lobby","monitor":"running"}"# + "\n", "\(start)")
        #expect(try await ada.run(["geotriggers", "remove", "lobby"]).status == 0)
        #expect(try await ada.run(["geotriggers", "list", "--json"]).stdout.hasPrefix("[]"))
        #expect(await server.stop() == 0)
    }
}
