import EventLogTesting
import Foundation
import Testing

/// `muster documents` and `muster audit` through the binary.
@Suite struct DocumentsCLITests {
    @Test func documentsPutThenGetGiveBackTheSameBytes() async throws {
        let work = try TemporaryDirectory("documents-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        var bytes = Array(String(repeating: "voice memo ", count: 50_000).utf8)
        // Scrambled printable ASCII: stdout is read back as text by `MusterProcess`.
        bytes += (0..<70_000).map { UInt8(0x21 + ($0 &* 2_654_435_761 >> 13) % 94) }
        let file = work.url.appendingPathComponent("memo.m4a")
        try Data(bytes).write(to: file)

        let put = try await MusterProcess.run(["documents", "put", file.path, "--user", "joe"] + data)
        #expect(put.status == 0, "\(put)")
        let result = try put.json()
        let name = try #require(result["name"] as? String)
        #expect(name.hasPrefix("rcs/audio/") && name.hasSuffix(".m4a"))
        #expect(result["size"] as? Int == bytes.count)
        #expect((result["blob"] as? String)?.count == 64)

        let get = try await MusterProcess.run(["documents", "get", name] + data)
        #expect(get.status == 0, "\(get.stderr)")
        #expect(Array(get.stdout.utf8) == bytes)
        let copy = work.url.appendingPathComponent("copy.m4a")
        let toFile = try await MusterProcess.run(["documents", "get", name, "--output", copy.path] + data)
        #expect(toFile.status == 0, "\(toFile)")
        #expect(try Data(contentsOf: copy) == Data(bytes))

        let unknown = try await MusterProcess.run(["documents", "get", "rcs/audio/nope.m4a"] + data)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no document named"))
        let pdf = work.url.appendingPathComponent("report.pdf")
        try Data([1, 2]).write(to: pdf)
        let refused = try await MusterProcess.run(["documents", "put", pdf.path] + data)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--kind"))
        let forced = try await MusterProcess.run(["documents", "put", pdf.path, "--kind", "image"] + data)
        #expect(forced.status == 0, "\(forced)")
        #expect((try forced.json()["name"] as? String)?.hasPrefix("rcs/image/") == true)
    }

    @Test func auditForAUserPrintsJSONLines() async throws {
        let work = try TemporaryDirectory("audit-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        #expect(try await MusterProcess.run(["users", "add", "ann"] + data).status == 0)
        let sent = try await MusterProcess.run(
            [
                "send", "--to", "joe,ann", "--title", "Example", "--body", "B", "--sender", "ann",
                NotificationsCLITests.payload,
            ] + data)
        #expect(sent.status == 0, "\(sent)")
        let ids = try #require(try sent.json()["messageIds"] as? [String])
        let answer = try await MusterProcess.run(
            ["respond", ids[0], "--user", "joe", "--device-id", "d1", #"{"simpleDropList":"Green"}"#] + data)
        #expect(answer.status == 0, "\(answer)")

        let audit = try await MusterProcess.run(["audit", "--user", "joe", "--json"] + data)
        #expect(audit.status == 0, "\(audit)")
        let lines = try audit.jsonLines()
        #expect(lines.map { $0["what"] as? String } == ["userCreated", "payloadSent", "responseReceived"])
        #expect(lines[1]["messageId"] as? String == ids[0])
        #expect(lines[1]["actor"] as? String == "ann")
        #expect(lines[1]["recipients"] as? [String] == ["joe", "ann"])
        #expect(lines[2]["deviceId"] as? String == "d1")
        #expect(lines[2]["submitValue"] as? Int == 0)

        let device = try await MusterProcess.run(["audit", "--device-id", "d1", "--json"] + data)
        #expect(try device.jsonLines().map { $0["what"] as? String } == ["responseReceived"])
        let future = try await MusterProcess.run(["audit", "--since", "2999-01-01T00:00:00Z", "--json"] + data)
        #expect(future.status == 0 && future.stdout.isEmpty, "\(future)")
        let table = try await MusterProcess.run(["audit", "--user", "joe"] + data)
        #expect(table.lines.first?.hasPrefix("POSITION") == true)
        #expect(table.lines.count == 4)
        let bad = try await MusterProcess.run(["audit", "--since", "yesterday"] + data)
        #expect(bad.status == 2)
    }
}
