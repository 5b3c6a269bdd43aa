import EventLog
import EventLogTesting
import Foundation
import Testing

/// Runs the built `muster` binary the way an operator would.
struct MusterBinary {
    let url: URL

    /// Finds `muster` in the build's bin directory by walking up from the test executable.
    static func locate() throws -> MusterBinary {
        let starts = [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<6 {
                let candidate = directory.appendingPathComponent("muster")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: candidate.path)
                {
                    return MusterBinary(url: candidate)
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw StoreError(
            .notFound, "no built muster binary near \(Bundle.main.bundleURL.path); run `swift build` first")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `muster arguments…`; output goes through files so a chatty stderr can never block the child.
    func run(_ arguments: [String], in directory: URL) throws -> Result {
        let id = UUID().uuidString.prefix(8)
        let out = directory.appendingPathComponent("stdout-\(id)")
        let err = directory.appendingPathComponent("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}

@Suite struct BackupCLITests {
    @Test func backupRestoreVerifyThroughTheBinary() async throws {
        let muster = try MusterBinary.locate()
        let work = try TemporaryDirectory("backup-cli")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let backup = work.url.appendingPathComponent("backup")
        let restored = work.url.appendingPathComponent("restored")

        // The `append` command is someone else's; the data is written through the library.
        let log = try EventLog(directory: data)
        for i in 1...25 {
            try await log.append(
                AppendRequest(stream: "cli-\(i % 3)", events: [NewEvent(type: "Noted", body: .json("{\"i\":\(i)}"))]))
        }
        let blob = try await log.blobs.put(Array(repeating: 7, count: 300_000))
        try await log.catchUpAsyncProjections()
        log.close()

        let backedUp = try muster.run(["backup", backup.path, "--data", data.path, "--json"], in: work.url)
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(backedUp.stdout.utf8)) as? [String: Any]
        #expect(manifest?["head"] as? Int == 25)
        #expect(manifest?["eventCount"] as? Int == 25)
        #expect((manifest?["blobs"] as? [String: Any])?["rawBytes"] as? Int == 300_000)

        let again = try muster.run(["backup", backup.path, "--data", data.path], in: work.url)
        #expect(again.status == 2)
        #expect(again.stderr.contains("not empty"), "\(again.stderr)")

        let restore = try muster.run(["restore", backup.path, "--data", restored.path, "--json"], in: work.url)
        #expect(restore.status == 0, "\(restore.stderr)")
        let refused = try muster.run(["restore", backup.path, "--data", restored.path], in: work.url)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--force"), "\(refused.stderr)")

        let verify = try muster.run(["verify", "--data", restored.path, "--json"], in: work.url)
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        #expect(report?["problemCount"] as? Int == 0)
        #expect(report?["events"] as? Int == 25)
        #expect(report?["blobs"] as? Int == 1)

        let reopened = try EventLog(directory: restored)
        defer { reopened.close() }
        #expect(reopened.head == 25)
        #expect(try reopened.blobs.bytes(blob.info.id) == Array(repeating: 7, count: 300_000))
    }

    @Test func verifyExitsOneWhenItFindsAProblem() async throws {
        let muster = try MusterBinary.locate()
        let work = try TemporaryDirectory("verify-cli")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        let log = try EventLog(directory: data)
        for i in 1...5 { try await log.append(AppendRequest(stream: "s", events: [.sample(n: i)])) }
        try await log.perform { scope in
            try scope.projection(TypeIndex.name).put("positions", Array("Phantom".utf8), [])
        }
        log.close()
        let verify = try muster.run(["verify", "--data", data.path], in: work.url)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("byType"), "\(verify.stdout)")
        #expect(verify.stderr.contains("verify found 1 problem in"), "\(verify.stderr)")
    }
}
