import EventLogTesting
import Foundation
import Testing

/// Input the command line refuses with one clear line and exit 2, or takes once, storing nothing it refused.
@Suite struct CLIInputTests {
    @Test func aProjectionNamedTwiceIsRebuiltOnce() async throws {
        let work = try TemporaryDirectory("rebuild-twice")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")
        let rebuilt = try await MusterProcess.run(["rebuild", "inbox", "inbox", "--json"] + data)
        #expect(rebuilt.status == 0, "\(rebuilt)")
        #expect(try rebuilt.json()["rebuilt"] as? [String] == ["inbox"], "\(rebuilt)")
    }

    /// `--data "$DIR"` with `DIR` unset would make the working directory a data directory (and chmod it 0700).
    @Test func anEmptyDataDirectoryIsBadUsage() async throws {
        let work = try TemporaryDirectory("empty-data")
        defer { work.remove() }
        let cwd = work.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: cwd.appendingPathComponent("notes.txt"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cwd.path)
        let inWork = ["/usr/bin/env", "-C", cwd.path]

        let empty = try await MusterProcess.run(["users", "add", "zed", "--data", ""], launcher: inWork)
        #expect(empty.status == 2, "\(empty)")
        #expect(empty.stderr.hasPrefix("muster: --data must not be empty"), "\(empty)")
        let before = try await MusterProcess.run(["--data=", "users", "list"], launcher: inWork)
        #expect(before.status == 2 && before.stderr.contains("--data"), "\(before)")

        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_DATA"] = ""
        let unset = try await MusterProcess.run(
            ["users", "add", "zed"], environment: environment, launcher: inWork)
        #expect(unset.status == 2, "\(unset)")
        #expect(unset.stderr.hasPrefix("muster: MUSTER_DATA is set but empty"), "\(unset)")

        environment["MUSTER_DATA"] = work.url.appendingPathComponent("data").path
        let added = try await MusterProcess.run(["users", "add", "joe"], environment: environment)
        try #require(added.status == 0, "\(added)")
        let backup = try await MusterProcess.run(["backup", ""], environment: environment, launcher: inWork)
        #expect(backup.status == 2, "\(backup)")
        #expect(backup.stderr.hasPrefix("muster: DEST_DIR must not be empty"), "\(backup)")

        #expect(try FileManager.default.contentsOfDirectory(atPath: cwd.path) == ["notes.txt"])
        let mode = try FileManager.default.attributesOfItem(atPath: cwd.path)[.posixPermissions] as? Int
        #expect(mode == 0o755)
    }

    @Test func checkpointOptionsThatDoNotGoTogetherExit2WithOneLine() async throws {
        let work = try TemporaryDirectory("checkpoint-usage")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")
        let saved = work.url.appendingPathComponent("cp.json")
        let checkpoint = try await MusterProcess.run(["checkpoint", "--json"] + data)
        try Data(checkpoint.stdout.utf8).write(to: saved)

        let trusted = try await MusterProcess.run(["checkpoint", "--trusted-key", "/dev/null"] + data)
        #expect(trusted.status == 2, "\(trusted)")
        #expect(trusted.stderr == "muster: --trusted-key needs --check FILE: it names who must have signed it\n")
        let both = try await MusterProcess.run(
            ["checkpoint", "--check", saved.path, "--sign-key", "/dev/null"] + data)
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr == "muster: --sign-key signs a new checkpoint; it cannot be used with --check\n")
    }

    @Test func aDirectoryGivenForAFileIsRefusedNamingIt() async throws {
        let work = try TemporaryDirectory("directory-as-file")
        defer { work.remove() }
        let directory = work.url.appendingPathComponent("data")
        let data = ["--data", directory.path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")
        let head = try await MusterProcess.run(["events", "--json"] + data).lines.count

        let imported = try await MusterProcess.run(["import", work.url.path] + data)
        #expect(imported.status == 2, "\(imported)")
        #expect(
            imported.stderr == "muster: \(work.url.path) is a directory; give a file of JSON lines, or - for stdin\n",
            "\(imported)")
        let put = try await MusterProcess.run(["documents", "put", work.url.path] + data)
        #expect(put.status == 2, "\(put)")
        #expect(put.stderr == "muster: \(work.url.path) is a directory; give the file to upload\n", "\(put)")
        #expect(try await MusterProcess.run(["events", "--json"] + data).lines.count == head)
    }

    /// A refused write leaves no data directory behind at a mistyped path.
    @Test func aRefusedWriteCreatesNoDataDirectory() async throws {
        let work = try TemporaryDirectory("typo")
        defer { work.remove() }
        let typo = work.url.appendingPathComponent("typo/data")
        let group = try await MusterProcess.run(["groups", "add", "g", "--members", "nobody", "--data", typo.path])
        #expect(group.status == 2, "\(group)")
        #expect(group.stderr.contains("no user named nobody"), "\(group)")
        let sent = try await MusterProcess.run(
            ["send", "--to", "nobody", "--title", "T", "--body", "B", #"{"responseTopic":"/a","fields":[]}"#]
                + ["--data", typo.path])
        #expect(sent.status == 2, "\(sent)")
        let appended = try await MusterProcess.run(
            ["append", "--stream", "s", "--type", "Noted", "--expected-version", "3", "{}", "--data", typo.path])
        #expect(appended.status == 3, "\(appended)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path) == [])

        // What succeeds still makes the directory.
        let added = try await MusterProcess.run(["users", "add", "joe", "--data", typo.path])
        #expect(added.status == 0, "\(added)")
        #expect(FileManager.default.fileExists(atPath: typo.appendingPathComponent("data.mdb").path))
    }

    /// `-5` is a value, not an option: the command says what is wrong with it.
    @Test func negativeNumbersAreReadAsValues() async throws {
        let work = try TemporaryDirectory("negative")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")

        let limit = try await MusterProcess.run(["settings", "set", "dailyNotificationLimit", "-5"] + data)
        #expect(limit.status == 2, "\(limit)")
        #expect(limit.stderr.contains("dailyNotificationLimit takes a whole number"), "\(limit)")
        #expect(limit.stderr.contains(#""-5""#), "\(limit)")
        let from = try await MusterProcess.run(["events", "--from", "-1"] + data)
        #expect(from.status == 2, "\(from)")
        #expect(from.stderr.contains("'-1' is invalid for '--from"), "\(from)")
        let limitEvents = try await MusterProcess.run(["events", "--limit", "-1"] + data)
        #expect(
            limitEvents.status == 2 && limitEvents.stderr.contains("--limit must not be negative"), "\(limitEvents)")
        let version = try await MusterProcess.run(
            ["append", "--stream", "s", "--type", "Noted", "--expected-version", "-1", "{}"] + data)
        #expect(version.status == 2, "\(version)")
        #expect(version.stderr.contains(#"--expected-version must be a number"#), "\(version)")
        // Where BODY_JSON goes, -5 is the body (which must be an object or array).
        let body = try await MusterProcess.run(["append", "--stream", "s", "--type", "Noted", "-5"] + data)
        #expect(body.status == 2, "\(body)")
        #expect(body.stderr.contains("the body (BODY_JSON) is not valid JSON"), "\(body)")
    }
}
