import EventLogTesting
import Foundation
import Testing

/// A disk whose syncs fail (EIO from `fsync`/`fdatasync`, injected with `FailingSync`): the commit that could not be
/// made durable is refused as an I/O error and leaves nothing behind, reads go on, and writes work again once the
/// disk does — without a restart. A commit whose meta page the disk refuses leaves LMDB's environment failed: the
/// server then stops, saying so, and a start recovers everything acknowledged.
@Suite(.serialized)
struct FailingSyncTests {
    static let payload = #"{"responseTopic":"/drill","fields":[{"type":"inputString","id":"where","label":"Where?"}]}"#

    /// The administrator ada and joe, each with the password `secret-NAME`.
    static func addAdaAndJoe(_ data: [String]) async throws {
        for (user, admin) in [("ada", ["--admin"]), ("joe", [])] {
            let added = try await MusterProcess.run(
                ["users", "add", user, "--password-stdin"] + admin + data, stdin: "secret-\(user)\n")
            try #require(added.status == 0, "\(added)")
        }
    }

    /// Sends joe a form titled `title` as `token`'s user.
    static func send(_ title: String, through server: KillableServer, token: String) async throws
        -> ServerProcess.Answer
    {
        try await server.send(
            "POST", "api/v1/notifications", token: token,
            json: #"{"to":["joe"],"title":"\#(title)","body":"B","payload":\#(Self.payload)}"#)
    }

    /// How many events of `type` the data directory holds.
    static func count(_ type: String, _ data: [String]) async throws -> Int {
        let listed = try await MusterProcess.run(["events", "--json", "--type", type] + data)
        try #require(listed.status == 0, "\(listed)")
        return listed.lines.count
    }

    @Test func theCommandLineSaysTheDiskFailedAndStoresNothing() async throws {
        let sync = try await FailingSync()
        defer { sync.remove() }
        let work = try TemporaryDirectory("failing-sync-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")

        try sync.fail()
        let append = try await MusterProcess.run(
            ["append", "--stream", "drill", "--type", "Drilled", #"{"n":1}"#] + data, environment: sync.environment)
        #expect(append.status == 1, "\(append)")
        #expect(append.stderr.contains("I/O error"), "\(append)")
        #expect(append.stderr.contains(work.url.path), "the message names where: \(append)")
        #expect(append.stderr.contains("nothing from the failed commit was stored"), "\(append)")
        #expect(try await Self.count("Drilled", data) == 0)

        try sync.heal()
        let again = try await MusterProcess.run(
            ["append", "--stream", "drill", "--type", "Drilled", #"{"n":2}"#] + data, environment: sync.environment)
        #expect(again.status == 0, "\(again)")
        #expect(try await Self.count("Drilled", data) == 1)
        let verify = try await MusterProcess.run(["verify"] + data)
        #expect(verify.status == 0, "\(verify)")
    }

    @Test func theServerAnswersAnIOErrorKeepsReadingAndWritesAgainOnceTheDiskDoes() async throws {
        let sync = try await FailingSync()
        defer { sync.remove() }
        let work = try TemporaryDirectory("failing-sync-server")
        defer { work.remove() }
        let directory = work.url.appendingPathComponent("data")
        let data = ["--data", directory.path]
        try await Self.addAdaAndJoe(data)
        let server = try await KillableServer(data: directory, environment: sync.environment)
        let ada = try await server.login("ada", password: "secret-ada")
        let joe = try await server.login("joe", password: "secret-joe")
        func send(_ title: String) async throws -> ServerProcess.Answer {
            try await Self.send(title, through: server, token: ada)
        }
        let first = try await send("before the disk failed")
        #expect(first.status == 201, "\(first.text)")

        try sync.fail()
        let refused = try await send("while the disk fails")
        #expect(refused.status == 500, "\(refused.text); the server wrote: \(server.stderr)")
        #expect(refused.errorCode == "internal", "\(refused.text)")
        #expect(refused.text.contains("I/O error") && refused.text.contains("nothing was stored"), "\(refused.text)")
        #expect(!refused.text.contains(directory.path), "the answer names no server path: \(refused.text)")
        let requestId = try #require(refused.headers["x-request-id"], "\(refused.headers)")
        #expect(
            server.stderr.contains(requestId) && server.stderr.contains(directory.path),
            "the log keeps the cause, with the path, under the request's id: \(server.stderr)")
        let inbox = try await server.send("GET", "api/v1/inbox", token: joe)
        #expect(inbox.status == 200, "reads go on: \(inbox.text)")
        #expect(inbox.array.map { $0["title"] as? String } == ["before the disk failed"], "\(inbox.text)")

        try sync.heal()
        let after = try await send("after the disk healed")
        #expect(after.status == 201, "without a restart: \(after.text); the server wrote: \(server.stderr)")
        #expect(server.child.isRunning)
        #expect(await server.stop() == 0)
        let titles = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        let messages = try JSONSerialization.jsonObject(with: Data(titles.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(
            messages.map { $0["title"] as? String } == ["before the disk failed", "after the disk healed"],
            "the refused send left nothing: \(titles)")
        let verify = try await MusterProcess.run(["verify"] + data)
        #expect(verify.status == 0, "\(verify)")
    }

    @Test func aCommitWhoseMetaPageTheDiskRefusesStopsTheServerAndAStartRecovers() async throws {
        let disk = try await FailingSync()
        defer { disk.remove() }
        let work = try TemporaryDirectory("failing-meta-server")
        defer { work.remove() }
        let directory = work.url.appendingPathComponent("data")
        let data = ["--data", directory.path]
        try await Self.addAdaAndJoe(data)
        let server = try await KillableServer(data: directory, environment: disk.environment)
        let ada = try await server.login("ada", password: "secret-ada")
        func send(_ title: String) async throws -> ServerProcess.Answer {
            try await Self.send(title, through: server, token: ada)
        }
        #expect(try await send("before the disk failed").status == 201)

        // The async projections caught up, so that the next commit is most likely the send's; but one of the
        // server's own (a projection's checkpoint) may come first: then the server is already stopping, and the send
        // is refused as unavailable or finds it gone. It is never stored.
        try await eventually("the async projections to catch up") {
            let metrics = try await server.send("GET", "metrics").text.split(separator: "\n")
            return !metrics.contains { $0.hasPrefix("muster_projection_lag_events{") && !$0.hasSuffix(" 0.0") }
        }
        try disk.failMetaWrites()
        if let refused = try? await send("while the disk fails") {
            #expect([500, 503].contains(refused.status), "\(refused.text); the server wrote: \(server.stderr)")
            #expect(refused.status != 500 || refused.text.contains("nothing was stored"), "\(refused.text)")
        }
        // Every later read and write would fail: the server stops by itself, with status 1 and the reason.
        try await eventually("the server to stop by itself", seconds: 30) { !server.child.isRunning }
        #expect(ChildProcess.exitCode(await server.child.waitForExit()) == 1, "\(server.stderr)")
        #expect(server.stderr.contains("LMDB marked it failed"), "\(server.stderr)")
        #expect(server.stderr.contains("start again"), "\(server.stderr)")

        // Started again (the disk healed), it has everything acknowledged, and nothing of the refused send.
        try FileManager.default.removeItem(at: disk.metaTrigger)
        let verify = try await MusterProcess.run(["verify"] + data)
        #expect(verify.status == 0, "\(verify)")
        let again = try await KillableServer(data: directory)
        let joe = try await again.login("joe", password: "secret-joe")
        let inbox = try await again.send("GET", "api/v1/inbox", token: joe)
        #expect(inbox.array.map { $0["title"] as? String } == ["before the disk failed"], "\(inbox.text)")
        #expect(await again.stop() == 0)
    }
}
