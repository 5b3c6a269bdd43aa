import EventLogTesting
import Foundation
import Testing

/// `muster users`, `groups` and `devices` through the binary.
@Suite struct DirectoryCLITests {
    @Test func usersGroupsAndDevicesThroughTheCommandLine() async throws {
        let work = try TemporaryDirectory("directory-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]

        let joe = try await MusterProcess.run(
            ["users", "add", "joe", "--password-stdin", "--tz", "Europe/Paris"] + data, stdin: "pw-of-joe\n")
        #expect(joe.status == 0, "\(joe)")
        #expect(try joe.json()["hasPassword"] as? Bool == true)
        #expect(try joe.json()["timeZone"] as? String == "Europe/Paris")
        #expect(try await MusterProcess.run(["users", "add", "ann", "--admin"] + data).status == 0)

        let again = try await MusterProcess.run(["users", "add", "joe"] + data)
        #expect(again.status == 3)
        #expect(again.stderr.contains("already exists"))
        let folded = try await MusterProcess.run(["users", "add", "JOE"] + data)
        #expect(folded.status == 3)
        #expect(folded.stderr.contains(#"as "joe""#))
        for name in ["../x", " kim", "kim\u{202E}", "\u{430}da"] {
            let refused = try await MusterProcess.run(["users", "add", name] + data)
            #expect(refused.status == 2, "\(name): \(refused)")
            #expect(refused.stderr.contains("user name"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
        let short = try await MusterProcess.run(["users", "add", "kim", "--password-stdin"] + data, stdin: "a\n")
        #expect(short.status == 2)
        #expect(short.stderr.contains("at least 8"))
        let noPassword = try await MusterProcess.run(["users", "add", "kim", "--password-stdin"] + data, stdin: "")
        #expect(noPassword.status == 2)
        #expect(noPassword.stderr.contains("--password-stdin"))

        let list = try await MusterProcess.run(["users", "list", "--json"] + data)
        let users = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(users?.compactMap { $0["name"] as? String } == ["ann", "joe"])
        #expect(!list.stdout.contains("hash"))

        let group = try await MusterProcess.run(["groups", "add", "ops", "--members", "joe, ann,joe"] + data)
        #expect(try group.json()["members"] as? [String] == ["joe", "ann"])
        let stranger = try await MusterProcess.run(["groups", "add", "ops", "--members", "joe,zed"] + data)
        #expect(stranger.status == 2)
        #expect(stranger.stderr.contains("no user named zed"))
        let removed = try await MusterProcess.run(["groups", "remove", "ops"] + data)
        #expect(removed.status == 0, "\(removed)")
        #expect(try removed.json()["removed"] as? String == "ops")
        #expect(try await MusterProcess.run(["groups", "list", "--json"] + data).stdout == "[]\n")
        let twice = try await MusterProcess.run(["groups", "remove", "ops"] + data)
        #expect(twice.status == 2 && twice.stderr.contains("no group named ops"), "\(twice)")

        let register = ["devices", "register", "--user", "joe", "--device-id", "d1", "--device-name", "Phone"]
        #expect(try await MusterProcess.run(register + ["--platform", "apns", "--token", "ab"] + data).status == 0)
        #expect(try await MusterProcess.run(register + ["--platform", "pager"] + data).status == 2)
        let devices = try await MusterProcess.run(["devices", "list", "--user", "joe", "--json"] + data)
        #expect(devices.stdout.contains("\"deviceId\":\"d1\""))
        #expect(
            try await MusterProcess.run(["devices", "remove", "--user", "joe", "--device-id", "d1"] + data).status == 0)
        let gone = try await MusterProcess.run(["devices", "remove", "--user", "joe", "--device-id", "d1"] + data)
        #expect(gone.status == 2)

        // The audit trail shows domain events as JSON, never a password hash.
        let events = try await MusterProcess.run(["events", "--type", "UserCreated", "--json"] + data)
        let bodies = try events.jsonLines().compactMap { $0["body"] as? [String: Any] }
        #expect(bodies.compactMap { $0["name"] as? String } == ["joe", "ann"])
        #expect(!events.stdout.contains("salt"))
    }
}
