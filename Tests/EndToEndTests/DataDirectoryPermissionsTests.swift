import EventLogTesting
import Foundation
import Testing

/// The data directory holds password hashes, token hashes and push tokens: only its owner may read it.
@Suite struct DataDirectoryPermissionsTests {
    @Test func aNewDataDirectoryIsTheOwnersOnly() async throws {
        let work = try TemporaryDirectory("modes-new")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("nested/data")

        let added = try await MusterProcess.run(["users", "add", "ada", "--data", data.path], timeout: 60)

        #expect(added.status == 0, "\(added)")
        #expect(!added.stderr.contains("tightened"), "\(added.stderr)")
        #expect(try Self.mode(data) == 0o700)
        #expect(try Self.mode(data.appendingPathComponent("data.mdb")) == 0o600)
        #expect(try Self.mode(data.appendingPathComponent("lock.mdb")) == 0o600)
    }

    @Test func backupsAndRestoredDirectoriesAreTheOwnersOnly() async throws {
        let work = try TemporaryDirectory("modes-backup")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let backup = work.url.appendingPathComponent("backup")
        let restored = work.url.appendingPathComponent("restored")
        let added = try await MusterProcess.run(["users", "add", "ada", "--data", data.path], timeout: 60)
        try #require(added.status == 0, "\(added)")

        let backedUp = try await MusterProcess.run(["backup", backup.path, "--data", data.path], timeout: 60)
        try #require(backedUp.status == 0, "\(backedUp)")
        #expect(try Self.mode(backup) == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: backup.path) {
            #expect(try Self.mode(backup.appendingPathComponent(name)) == 0o600, "\(name)")
        }

        let restore = try await MusterProcess.run(["restore", backup.path, "--data", restored.path], timeout: 60)
        try #require(restore.status == 0, "\(restore)")
        #expect(try Self.mode(restored) == 0o700)
        #expect(try Self.mode(restored.appendingPathComponent("data.mdb")) == 0o600)
    }

    @Test func aLooseDirectoryIsTightenedOnOpenAndSaysSoOnce() async throws {
        let work = try TemporaryDirectory("modes-loose")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let added = try await MusterProcess.run(["users", "add", "ada", "--data", data.path], timeout: 60)
        try #require(added.status == 0, "\(added)")
        // What 0.1.0 made.
        #expect(chmod(data.path, 0o755) == 0)
        for name in ["data.mdb", "lock.mdb"] { #expect(chmod(data.appendingPathComponent(name).path, 0o644) == 0) }

        let first = try await MusterProcess.run(["events", "--data", data.path], timeout: 60)
        #expect(first.status == 0, "\(first)")
        let notice = first.stderr.split(separator: "\n").filter { $0.contains("tightened permissions") }
        #expect(notice.count == 1, "\(first.stderr)")
        #expect(notice.first?.contains(data.path) == true && notice.first?.contains("0700") == true)
        #expect(try Self.mode(data) == 0o700)
        #expect(try Self.mode(data.appendingPathComponent("data.mdb")) == 0o600)
        #expect(try Self.mode(data.appendingPathComponent("lock.mdb")) == 0o600)

        let second = try await MusterProcess.run(["events", "--data", data.path], timeout: 60)
        #expect(second.status == 0, "\(second)")
        #expect(!second.stderr.contains("tightened"), "\(second.stderr)")
    }

    /// The permission bits of a file or directory.
    static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }
}
