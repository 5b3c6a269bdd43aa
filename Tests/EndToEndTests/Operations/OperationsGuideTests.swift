import EventLogTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every command of Docs/operations.md runs: its `sh` blocks in order against a temporary data directory, with the
/// servers of its `sh serve` blocks; its systemd units pass `systemd-analyze verify`.
@Suite(.serialized) struct OperationsGuideTests {
    /// The variables the guide's commands read, set for a temporary data directory and a free port.
    struct Stage {
        let directory: TemporaryDirectory
        var environment: [String: String]

        init() throws {
            directory = try TemporaryDirectory("operations")
            let root = directory.url.path
            let port = try LoopbackPort.free()
            let password = directory.url.appendingPathComponent("admin.password")
            try Data("a-long-secret-4711\n".utf8).write(to: password)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: password.path)
            try FileManager.default.createDirectory(
                atPath: root + "/data", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment = ProcessInfo.processInfo.environment
            let binaries = try MusterProcess.binary().deletingLastPathComponent().path
            environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["MUSTER_SESSION"] = root + "/session"
            environment["MUSTER_DATA"] = root + "/data"
            environment["MUSTER_PORT"] = String(port)
            environment["MUSTER_URL"] = "http://127.0.0.1:\(port)"
            environment["MUSTER_PID"] = "0"
            environment["ADMIN_PASSWORD_FILE"] = password.path
            environment["BACKUP_DIR"] = root + "/backups"
            environment["DRILL_DIR"] = root + "/drill"
            environment["CAPACITY_EVENTS"] = "5"
        }
    }

    @Test func theGuidesVariablesAreTheOnesTheTestSets() throws {
        let guide = try OperationsGuide()
        let stage = try Stage()
        defer { stage.directory.remove() }
        let set: Set = [
            "MUSTER_DATA", "MUSTER_PORT", "MUSTER_URL", "MUSTER_PID", "ADMIN_PASSWORD_FILE", "BACKUP_DIR", "DRILL_DIR",
            "CAPACITY_EVENTS",
        ]
        #expect(guide.variables == set, "the sh env block exports \(guide.variables.sorted())")
        #expect(set.isSubset(of: stage.environment.keys))
        let tags = Set(guide.blocks.map(\.tag))
        let known: Set = ["sh", "sh serve", "sh env", "sh root", "sh tools", "ini", "nginx", "text"]
        #expect(tags.isSubset(of: known), "blocks of unknown tags: \(tags.subtracting(known))")
        #expect(guide.blocks(tagged: "sh").count >= 8)
    }

    @Test func everyShellBlockRunsInOrderWithItsServers() async throws {
        let guide = try OperationsGuide()
        var stage = try Stage()
        defer { stage.directory.remove() }
        var server: MusterProcess.Running?
        defer { if let server, server.isRunning { server.child.send(SIGTERM) } }
        var outputs: [(block: OperationsGuide.Block, outcome: Shell.Outcome)] = []
        for block in guide.blocks where block.tag == "sh" || block.tag == "sh serve" {
            if block.tag == "sh serve" {
                if let running = server {
                    let status = await running.stop()
                    try #require(status == 0, "the server of before line \(block.line): \(running.state())")
                }
                let arguments = try await Shell.musterArguments(block.text, environment: stage.environment)
                let running = try MusterProcess.Running(arguments, environment: stage.environment)
                server = running
                let line = await running.waitForLine { $0.contains("listening on") }
                try #require(line != nil, "the serve line at line \(block.line) did not start: \(running.state())")
                stage.environment["MUSTER_PID"] = String(running.pid)
                continue
            }
            let outcome = try await Shell.run(block.text, environment: stage.environment)
            try #require(outcome.status == 0, "the block at line \(block.line) of operations.md: \(outcome)")
            outputs.append((block, outcome))
        }
        let running = try #require(server)

        // What the blocks printed is what the guide says they print.
        let health = try #require(
            outputs.first { $0.block.text.contains("/healthz") && !$0.block.text.contains("https") })
        #expect(health.outcome.stdout.contains(#""status":"ok""#), "\(health.outcome)")
        let tls = try #require(outputs.first { $0.block.text.contains("https://localhost") })
        #expect(tls.outcome.stdout.contains(#""status":"ok""#), "\(tls.outcome)")
        let drill = try #require(outputs.first { $0.block.text.contains("muster verify --data \"$DRILL_DIR\"") })
        #expect(!FileManager.default.fileExists(atPath: stage.environment["DRILL_DIR"]!), "the drill cleans up")
        #expect(drill.outcome.stdout.contains("ada") || drill.outcome.stdout.contains("head"), "\(drill.outcome)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: stage.environment["BACKUP_DIR"]!)
        #expect(backups.count == 1, "\(backups)")
        let capacity = try #require(outputs.first { $0.block.text.contains("CAPACITY_EVENTS") })
        #expect(capacity.outcome.stdout.contains("grew by"), "\(capacity.outcome)")
        let metrics = try #require(outputs.first { $0.block.text.contains("/metrics") })
        for name in ["muster_build_info", "muster_log_head", "muster_http_requests_total"] {
            #expect(metrics.outcome.stdout.contains(name), "\(metrics.outcome)")
        }

        // The refused request of "Logs": its body names a request id, and the server's JSON log line names the same.
        let refused = try #require(outputs.last { $0.block.text.contains("/api/v1/inbox") })
        let body = try JSONSerialization.jsonObject(with: Data(refused.outcome.stdout.utf8)) as? [String: Any]
        let requestId = try #require((body?["error"] as? [String: Any])?["requestId"] as? String, "\(refused.outcome)")
        let logged = running.stderr.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(!logged.isEmpty, "the last server logs JSON: \(running.stderr)")
        let line = logged.first { ($0["metadata"] as? [String: Any])?["hb.request.id"] as? String == requestId }
        #expect(
            line?["message"] as? String
                == "refused: this route needs a bearer token: log in (POST /api/v1/auth/token) and send Authorization: Bearer <accessToken>",
            "\(running.stderr)")
        #expect((line?["metadata"] as? [String: Any])?["code"] as? String == "unauthenticated")
        #expect(await running.stop() == 0)
    }

    @Test func theSystemdUnitsPassSystemdsOwnCheck() async throws {
        let guide = try OperationsGuide()
        let directory = try TemporaryDirectory("units")
        defer { directory.remove() }
        let muster = try MusterProcess.binary().path
        let packaged = try String(
            contentsOf: OperationsGuide.url.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Packaging/muster.service"), encoding: .utf8)
        var units: [String] = []
        for block in guide.blocks(tagged: "ini") {
            let first = try #require(block.text.split(separator: "\n").first, "line \(block.line)")
            let path = try #require(
                first.firstMatch(of: /^# (\/etc\/systemd\/system\/\S+)$/)?.output.1,
                "line \(block.line) names no unit file")
            var name = String(path.split(separator: "/").last!)
            var text = block.text
            if path.contains(".service.d/") {
                // A drop-in is checked as systemd reads it: after the unit it changes.
                name = String(path.split(separator: "/").dropLast().last!.dropLast(2))
                text = packaged + "\n" + text
            }
            text = text.replacingOccurrences(of: "/usr/bin/muster", with: muster)
            try Data(text.utf8).write(to: directory.url.appendingPathComponent(name))
            units.append(directory.url.appendingPathComponent(name).path)
        }
        #expect(units.count >= 3, "the TLS drop-in, the backup service and its timer")
        let verdict = try await Shell.run(
            "cd \(directory.url.path) && systemd-analyze verify --man=no "
                + units.map { "'\($0)'" }.joined(separator: " ")
                + " 2>&1", environment: ProcessInfo.processInfo.environment)
        #expect(verdict.status == 0, "\(verdict)")
        #expect(verdict.stdout.isEmpty, "systemd-analyze finds fault: \(verdict.stdout)")
    }

    @Test func theToolsTheGuideRunsAreOnesToolsTestRuns() throws {
        let guide = try OperationsGuide()
        let root = OperationsGuide.url.deletingLastPathComponent().deletingLastPathComponent()
        let test = try String(contentsOf: root.appendingPathComponent("Tools/test"), encoding: .utf8)
        let commands = guide.blocks(tagged: "sh tools").flatMap { $0.text.split(separator: "\n") }
        #expect(!commands.isEmpty)
        for command in commands {
            let tool = String(command.split(separator: " ").first ?? "")
            #expect(FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(tool).path), "\(tool)")
            #expect(test.contains(tool + " "), "Tools/test does not run \(tool)")
        }
    }
}
