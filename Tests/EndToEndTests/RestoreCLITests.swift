import EventLogTesting
import Foundation
import Testing

@Suite struct RestoreCLITests {
    /// A restore under a running server would swap the directory while the server kept writing into the replaced,
    /// deleted files: everything it acknowledged afterwards was lost. The restore is refused instead.
    @Test func restoreIsRefusedWhileAServerHasTheDataDirectoryOpen() async throws {
        let server = try await ServerProcess { data in
            let joe = try await MusterProcess.run(["users", "add", "joe", "--data", data.path])
            try #require(joe.status == 0, "\(joe)")
        }
        let work = try TemporaryDirectory("restore-live")
        defer { work.remove() }
        let backup = work.url.appendingPathComponent("backup")
        let backedUp = try await server.run(["backup", backup.path] + server.data)
        try #require(backedUp.status == 0, "\(backedUp)")

        let refused = try await server.run(["restore", "--force", backup.path] + server.data)
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stderr.contains(server.directory.url.path), "\(refused.stderr)")
        #expect(refused.stderr.contains("stop the server first"), "\(refused.stderr)")
        #expect(refused.stderr.contains("process \(server.running.pid)"), "\(refused.stderr)")

        // The server goes on, and what it acknowledges is kept.
        let token = try await server.login("ada", password: "secret-ada")
        let sent = try await server.send(
            "POST", "api/v1/notifications", token: token,
            json: #"{"to":["joe"],"title":"Acknowledged","body":"b","payload":{"responseTopic":"/a","fields":[]}}"#)
        try #require(sent.status == 201, "\(sent.text)")
        #expect(await server.stop() == 0)
        let inbox = try await MusterProcess.run(["inbox", "joe", "--json"] + server.data)
        #expect(inbox.status == 0, "\(inbox)")
        #expect(try inbox.jsonLinesOrArray().compactMap { $0["title"] as? String } == ["Acknowledged"], "\(inbox)")

        // Once the server stopped, the same restore goes ahead (back to the backup, without the message).
        let restored = try await MusterProcess.run(["restore", "--force", backup.path] + server.data)
        #expect(restored.status == 0, "\(restored)")
        let after = try await MusterProcess.run(["inbox", "joe", "--json"] + server.data)
        #expect(try after.jsonLinesOrArray().isEmpty, "\(after)")
    }
}

extension MusterProcess.Outcome {
    /// stdout as a JSON array of objects, or as JSON lines.
    fileprivate func jsonLinesOrArray() throws -> [[String: Any]] {
        if let array = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]] {
            return array
        }
        return try jsonLines()
    }
}
