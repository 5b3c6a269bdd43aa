import EventLog
import EventLogTesting
import Foundation
import Migrations
import Testing

/// `--data` before the subcommand's name, and `--json` on every verb.
@Suite struct GlobalOptionsCLITests {
    @Test func dataBeforeTheSubcommandActsOnThatDirectory() async throws {
        let work = try TemporaryDirectory("global-options-cli")
        defer { work.remove() }
        let directory = work.url.appendingPathComponent("data").path

        let added = try await MusterProcess.run(["--data", directory, "users", "add", "joe"])
        #expect(added.status == 0, "\(added)")
        let before = try await MusterProcess.run(["--data", directory, "users", "list"])
        let after = try await MusterProcess.run(["users", "list", "--data", directory])
        #expect(before.status == 0, "\(before)")
        #expect(before.stdout == after.stdout)
        #expect(before.lines.count == 2)
        #expect(before.lines.last?.hasPrefix("joe ") == true)
        let equals = try await MusterProcess.run(["--data=\(directory)", "users", "list", "--json"])
        let users = try JSONSerialization.jsonObject(with: Data(equals.stdout.utf8)) as? [[String: Any]]
        #expect(users?.compactMap { $0["name"] as? String } == ["joe"])

        // Given twice, the one after the name is the one that counts, as with any repeated option.
        let elsewhere = work.url.appendingPathComponent("elsewhere").path
        let twice = try await MusterProcess.run(["--data", elsewhere, "users", "list", "--data", directory])
        #expect(twice.stdout == before.stdout, "\(twice)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere))

        let nowhere = try await MusterProcess.run(["--data", directory, "nonsense"])
        #expect(nowhere.status == 2, "\(nowhere)")
        #expect(nowhere.stderr == "muster: no command nonsense; see muster --help\n", "\(nowhere)")
        let noCommand = try await MusterProcess.run(["--data", directory])
        #expect(noCommand.status == 2 && noCommand.stderr.contains("needs a command"), "\(noCommand)")
        let noDirectory = try await MusterProcess.run(["--data"])
        #expect(noDirectory.status == 2 && noDirectory.stderr.contains("--data needs a directory"), "\(noDirectory)")
    }

    @Test func versionNamesTheReleaseAndTheStoreFormatItWrites() async throws {
        let version = try await MusterProcess.run(["--version"])
        #expect(version.status == 0, "\(version)")
        #expect(version.stdout == "muster \(MusterRelease.version), store format \(Self.storeFormat)\n", "\(version)")
    }

    /// The format this release writes, as a new data directory records it.
    static var storeFormat: UInt32 {
        var configuration = EventLog.Configuration()
        configuration.migrations = Migrations.storeMigrations
        return configuration.formatVersion
    }

    @Test func jsonIsAcceptedByVerbsThatPrintJSONAlready() async throws {
        let work = try TemporaryDirectory("global-options-json")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]

        let plain = try await MusterProcess.run(["users", "add", "ann"] + data)
        let json = try await MusterProcess.run(["users", "add", "joe", "--json"] + data)
        #expect(plain.status == 0 && json.status == 0, "\(json)")
        #expect(try json.json()["name"] as? String == "joe")
        #expect(json.stdout == plain.stdout.replacingOccurrences(of: "ann", with: "joe"))

        let group = try await MusterProcess.run(["groups", "add", "ops", "--members", "joe", "--json"] + data)
        #expect(group.stdout == #"{"members":["joe"],"name":"ops"}"# + "\n", "\(group)")
        let setting = try await MusterProcess.run(["settings", "set", "pushSizeLimit", "2048", "--json"] + data)
        #expect(try setting.json()["value"] as? String == "2048", "\(setting)")
        let appended = try await MusterProcess.run(
            ["append", "--stream", "s-1", "--type", "Noted", "--json", #"{"a":1}"#] + data)
        #expect(try appended.json()["stream"] as? String == "s-1", "\(appended)")
    }

    @Test func serveLoginAndLogoutPrintJSONWithJSON() async throws {
        let server = try await ServerProcess(extraArguments: ["--json"])
        let started = try #require(
            try JSONSerialization.jsonObject(with: Data(server.started.utf8)) as? [String: Any], "\(server.started)")
        #expect(started["listening"] as? String == server.base.absoluteString, "\(server.started)")
        #expect(started["data"] as? String == server.directory.url.path, "\(server.started)")
        #expect(started["head"] as? Int != nil, "\(server.started)")
        #expect(server.base.port != 0)

        let work = try TemporaryDirectory("global-options-login")
        defer { work.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_DATA"] = nil
        environment["MUSTER_SESSION"] = work.url.appendingPathComponent("session.json").path
        let base = server.base.absoluteString

        let login = try await MusterProcess.run(
            ["login", "--server", base, "ada", "--password-stdin", "--json"], stdin: "secret-ada\n",
            environment: environment)
        #expect(login.status == 0, "\(login)")
        let loggedIn = try login.json()
        #expect(loggedIn["server"] as? String == base, "\(login)")
        #expect(loggedIn["username"] as? String == "ada", "\(login)")
        #expect(loggedIn["session"] as? String == environment["MUSTER_SESSION"], "\(login)")
        #expect(loggedIn["namespace"] == nil, "\(login)")
        let expiresAt = try #require(loggedIn["expiresAt"] as? String, "\(login)")
        let expiry = try #require(try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(expiresAt))
        #expect(expiry > Date(), "\(login)")
        #expect(login.lines.count == 1, "\(login)")

        let logout = try await MusterProcess.run(["logout", "--json"], environment: environment)
        #expect(logout.status == 0, "\(logout)")
        #expect(logout.stdout == #"{"loggedOut":true,"server":"\#(base)","username":"ada"}"# + "\n", "\(logout)")
        let again = try await MusterProcess.run(["logout", "--json"], environment: environment)
        #expect(again.status == 0 && again.stdout == #"{"loggedOut":false}"# + "\n", "\(again)")
        let plain = try await MusterProcess.run(["logout"], environment: environment)
        #expect(plain.status == 0 && plain.stdout == "not logged in\n", "\(plain)")
    }

    @Test func aVerbOfDataDirectoriesMakesNoneWhereYouStandWhileYouAreLoggedIn() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("global-options-logged-in-local-verb")
        defer { work.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_DATA"] = nil
        environment["MUSTER_SESSION"] = work.url.appendingPathComponent("session.json").path
        let login = try await MusterProcess.run(
            ["login", "--server", server.base.absoluteString, "ada", "--password-stdin"], stdin: "secret-ada\n",
            environment: environment)
        #expect(login.status == 0, "\(login)")
        let inWork = ["/usr/bin/env", "-C", work.url.path]
        let here = work.url.appendingPathComponent("muster-data")

        for verb in [
            ["append", "--stream", "s-1", "--type", "Noted", #"{"a":1}"#], ["import", "-"], ["status"],
        ] {
            let refused = try await MusterProcess.run(verb, stdin: "{}", environment: environment, launcher: inWork)
            #expect(refused.status == 2, "\(refused)")
            #expect(
                refused.stderr.contains(
                    "acts on a data directory only, not on \(server.base.absoluteString) where you are logged in"),
                "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: here.path), "\(verb)")
        }
        // Named, the directory is made as before.
        let named = try await MusterProcess.run(
            ["append", "--stream", "s-1", "--type", "Noted", "--data", "muster-data", #"{"a":1}"#],
            environment: environment, launcher: inWork)
        #expect(named.status == 0, "\(named)")
        #expect(FileManager.default.fileExists(atPath: here.appendingPathComponent("data.mdb").path))
        #expect(await server.stop() == 0)
    }
}
