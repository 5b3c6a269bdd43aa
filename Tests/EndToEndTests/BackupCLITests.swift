import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

@Suite struct BackupCLITests {
    /// What the `muster` binary opens data directories with: the built-in and the domain projections.
    static var release: EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        return configuration
    }

    @Test func backupRestoreVerifyThroughTheBinary() async throws {
        let work = try TemporaryDirectory("backup-cli")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let backup = work.url.appendingPathComponent("backup")
        let restored = work.url.appendingPathComponent("restored")

        // The `append` command is someone else's; the data is written through the library.
        let log = try EventLog(directory: data, configuration: Self.release)
        for i in 1...25 {
            try await log.append(
                AppendRequest(stream: "cli-\(i % 3)", events: [NewEvent(type: "Noted", body: .json("{\"i\":\(i)}"))]))
        }
        let blob = try await log.blobs.put(Array(repeating: 7, count: 300_000))
        try await log.catchUpAsyncProjections()
        log.close()

        let backedUp = try await MusterProcess.run(["backup", backup.path, "--data", data.path, "--json"])
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(backedUp.stdout.utf8)) as? [String: Any]
        #expect(manifest?["head"] as? Int == 25)
        #expect(manifest?["eventCount"] as? Int == 25)
        #expect((manifest?["blobs"] as? [String: Any])?["rawBytes"] as? Int == 300_000)

        let again = try await MusterProcess.run(["backup", backup.path, "--data", data.path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("not empty"), "\(again.stderr)")

        let restore = try await MusterProcess.run(["restore", backup.path, "--data", restored.path, "--json"])
        #expect(restore.status == 0, "\(restore.stderr)")
        let refused = try await MusterProcess.run(["restore", backup.path, "--data", restored.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--force"), "\(refused.stderr)")

        let verify = try await MusterProcess.run(["verify", "--data", restored.path, "--json"])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        #expect(report?["problemCount"] as? Int == 0)
        #expect(report?["events"] as? Int == 25)
        #expect(report?["blobs"] as? Int == 1)

        let reopened = try EventLog(directory: restored, configuration: Self.release)
        defer { reopened.close() }
        #expect(reopened.head == 25)
        #expect(try reopened.blobs.bytes(blob.info.id) == Array(repeating: 7, count: 300_000))
    }

    @Test func verifyExitsOneWhenItFindsAProblem() async throws {
        let work = try TemporaryDirectory("verify-cli")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let log = try EventLog(directory: data, configuration: Self.release)
        for i in 1...5 { try await log.append(AppendRequest(stream: "s", events: [.sample(n: i)])) }
        try await log.perform { scope in
            try Array("Phantom".utf8).withUnsafeBytes { key in
                try scope.projection(PositionIndex.byType.name).appendValues("positionSets", key: key, ascending: [1])
            }
        }
        log.close()
        let verify = try await MusterProcess.run(["verify", "--data", data.path])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("byType"), "\(verify.stdout)")
        #expect(verify.stderr.contains("verify found 1 problem in"), "\(verify.stderr)")
    }

    /// A backup inside the data directory would be deleted by the restore that needs it.
    @Test func aBackupIsNeverWrittenInsideTheDataDirectory() async throws {
        let work = try TemporaryDirectory("backup-inside")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let joe = try await MusterProcess.run(["users", "add", "joe", "--data", data.path])
        try #require(joe.status == 0, "\(joe)")
        // Also through a symbolic link to the data directory.
        let link = work.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: data)
        for destination in [data.appendingPathComponent("nightly"), link.appendingPathComponent("nightly"), data] {
            let refused = try await MusterProcess.run(["backup", destination.path, "--data", data.path])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains("is inside the data directory \(data.path)"), "\(refused)")
        }
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("nightly").path))

        // One put there by hand is not restored over the directory that holds it.
        let backup = work.url.appendingPathComponent("backup")
        let made = try await MusterProcess.run(["backup", backup.path, "--data", data.path])
        try #require(made.status == 0, "\(made)")
        let inside = data.appendingPathComponent("nightly")
        try FileManager.default.moveItem(at: backup, to: inside)
        let restore = try await MusterProcess.run(["restore", "--force", inside.path, "--data", data.path])
        #expect(restore.status == 2, "\(restore)")
        #expect(restore.stderr.contains("is inside the data directory"), "\(restore)")
        #expect(FileManager.default.fileExists(atPath: inside.appendingPathComponent("manifest.json").path))
    }

    /// A backup of a damaged log could never be restored: it fails (exit 1) naming the damage, and leaves nothing.
    @Test func aBackupOfADamagedLogFails() async throws {
        let work = try TemporaryDirectory("backup-damaged")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let joe = try await MusterProcess.run([
            "users", "add", "joe", "--email", "joe@example.org", "--data", data.path,
        ])
        try #require(joe.status == 0, "\(joe)")
        let file = data.appendingPathComponent("data.mdb")
        var bytes = try Data(contentsOf: file)
        let at = try #require(bytes.range(of: Data("joe@example.org".utf8)))
        bytes[at.lowerBound] = UInt8(ascii: "J")
        try bytes.write(to: file)

        let backup = work.url.appendingPathComponent("backup")
        let failed = try await MusterProcess.run(["backup", backup.path, "--data", data.path])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("data directory \(data.path) is damaged: event at position 1"), "\(failed)")
        #expect(failed.stderr.contains("no backup was written"), "\(failed)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: backup.path)) ?? [] == [])
    }
}
