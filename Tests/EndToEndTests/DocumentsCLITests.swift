import EventLogTesting
import Foundation
import Testing

/// `muster documents` and `muster audit` through the binary.
@Suite struct DocumentsCLITests {
    @Test func documentsPutThenGetGiveBackTheSameBytes() async throws {
        let work = try TemporaryDirectory("documents-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        // A real M4A header (ASCII and NULs) keeps the content acceptable as audio.
        var bytes = MediaSamples.header("m4a") + Array(String(repeating: "voice memo ", count: 50_000).utf8)
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
        #expect(forced.status == 2, "\(forced)")
        #expect(forced.stderr.contains("image/png"), "\(forced)")
        // A scan saved with another extension: its first bytes tell the kind and the type.
        try Data(MediaSamples.file("png")).write(to: pdf)
        let scan = try await MusterProcess.run(["documents", "put", pdf.path] + data)
        #expect(scan.status == 0, "\(scan)")
        #expect((try scan.json()["name"] as? String)?.hasPrefix("rcs/image/") == true)
    }

    @Test func documentsPutRefusesAFileWhoseBytesAreNotMediaOfItsKind() async throws {
        let work = try TemporaryDirectory("documents-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let page = work.url.appendingPathComponent("photo.jpg")
        try Data(MediaSamples.htmlWithScript).write(to: page)
        let svg = work.url.appendingPathComponent("logo.svg")
        try Data(MediaSamples.svgWithOnload).write(to: svg)
        let png = work.url.appendingPathComponent("photo.png")
        try Data(MediaSamples.file("png")).write(to: png)
        for arguments in [
            [page.path], [svg.path, "--kind", "image"], [png.path, "--content-type", "text/html"],
            [png.path, "--kind", "audio"],
        ] {
            let refused = try await MusterProcess.run(["documents", "put"] + arguments + data)
            #expect(refused.status == 2, "\(arguments): \(refused)")
            #expect(refused.stderr.contains("image/jpeg") || refused.stderr.contains("audio/mp4"), "\(refused)")
        }
        let events = try await MusterProcess.run(["events", "--json"] + data)
        #expect(!events.stdout.contains("DocumentUploaded"), "\(events)")
        let accepted = try await MusterProcess.run(["documents", "put", png.path] + data)
        #expect(accepted.status == 0, "\(accepted)")
    }

    @Test func documentsPutBeyondTheUsersQuotaExits1AndStoresNothing() async throws {
        let work = try TemporaryDirectory("documents-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let set = try await MusterProcess.run(["settings", "set", "documentQuotaPerUser", "1KiB"] + data)
        #expect(set.status == 0, "\(set)")
        #expect(set.stdout.contains("1024"), "\(set)")
        let photo = work.url.appendingPathComponent("photo.jpg")
        try Data(MediaSamples.file("jpeg", size: 2_000)).write(to: photo)
        let refused = try await MusterProcess.run(["documents", "put", photo.path, "--user", "joe"] + data)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains("user joe has 0 bytes of 1.0 KiB stored")
                && refused.stderr.contains("documentQuotaPerUser"),
            "\(refused)")
        let events = try await MusterProcess.run(["events", "--json"] + data)
        #expect(!events.stdout.contains("DocumentUploaded"), "\(events)")
        let bad = try await MusterProcess.run(["settings", "set", "documentQuotaPerUser", "lots"] + data)
        #expect(bad.status == 2, "\(bad)")
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
