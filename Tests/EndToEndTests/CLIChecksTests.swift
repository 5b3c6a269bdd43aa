import EventLogTesting
import Foundation
import Testing

/// Names and topics the command line checks before storing them, `verify` on the push sources' secrets, and JSON
/// where `--json` asks for it.
@Suite struct CLIChecksTests {
    @Test func documentsGetWithJSONDescribesTheFileItWrote() async throws {
        let work = try TemporaryDirectory("documents-get-json")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let png = work.url.appendingPathComponent("p.png")
        let bytes = MediaSamples.file("png")
        try Data(bytes).write(to: png)
        let put = try await MusterProcess.run(["documents", "put", png.path] + data)
        let name = try #require(try put.json()["name"] as? String, "\(put)")

        let toStdout = try await MusterProcess.run(["documents", "get", name, "--json"] + data)
        #expect(toStdout.status == 2, "\(toStdout)")
        #expect(toStdout.stdout.isEmpty)
        #expect(toStdout.stderr.hasPrefix("muster: --json describes the file written with --output FILE"))
        let copy = work.url.appendingPathComponent("out.png")
        let toFile = try await MusterProcess.run(["documents", "get", name, "-o", copy.path, "--json"] + data)
        #expect(toFile.status == 0, "\(toFile)")
        let written = try toFile.json()
        #expect(written["name"] as? String == name)
        #expect(written["size"] as? Int == bytes.count)
        #expect(written["output"] as? String == copy.path)
        #expect(try Data(contentsOf: copy) == Data(bytes))
    }
}
