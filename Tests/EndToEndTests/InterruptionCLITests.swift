import EventLogTesting
import Foundation
import Testing

/// Ctrl-C (SIGINT) during long operations: what they did is reported, and nothing half-done is left.
@Suite struct InterruptionCLITests {
    /// An interrupted import stops after the batch being committed and names the last line committed, so that running
    /// it on the rest stores no line twice (lines without ids get new ones).
    @Test func anInterruptedImportSaysWhichLinesAreCommitted() async throws {
        let work = try TemporaryDirectory("import-interrupted")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let fifo = work.url.appendingPathComponent("lines")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        // 8192 lines of 128 bytes: the 1 MiB the import reads at once, then it waits for more.
        let prefix = #"{"stream":"s","type":"Noted","body":{"pad":""#
        let line = prefix + String(repeating: "x", count: 128 - prefix.utf8.count - 4) + "\"}}\n"
        let lines = Array(String(repeating: line, count: 8192).utf8)
        let importing = try MusterProcess.Running(["import", fifo.path, "--batch-size", "4096"] + data)
        let writer = open(fifo.path, O_WRONLY)
        try #require(writer >= 0)
        defer { close(writer) }
        let written = lines.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        try #require(written == lines.count)

        try await eventually("the first 8192 lines to be committed") {
            let status = try await MusterProcess.run(["status", "--json"] + data)
            return try status.json()["head"] as? Int == 8192 ? true : nil
        }
        let status = await importing.stop(with: SIGINT)
        #expect(status == 1, "\(importing.state())")
        #expect(
            importing.stderr.contains(
                "muster: import interrupted: lines 1–8192 are committed (8192 events imported, last position 8192), "
                    + "nothing after them; to go on, import the lines after it: tail -n +8193 \(fifo.path)"),
            "\(importing.state())")
        let after = try await MusterProcess.run(["status", "--json"] + data)
        #expect(try after.json()["head"] as? Int == 8192, "\(after)")
    }
}
