import EventLogTesting
import Foundation

/// `muster import` of `--events` JSON lines (stream, type, a body of `--body-size` bytes) into a new data directory,
/// durable at the end, against raw LMDB appending 1,000 values per durable commit and PostgreSQL's `COPY` of the
/// same lines into a `jsonb` column, in the same run.
struct JSONLinesImport: Scenario {
    let name = "import"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let directory = try TemporaryDirectory("bench-import")
        defer { settings.discard(directory) }
        let lines = directory.url.appendingPathComponent("events.jsonl")
        let size = try Self.write(settings.events, bodySize: settings.bodySize, to: lines)
        report.notes.append(
            "\(settings.events) lines, \(size / settings.events) B each (\(settings.bodySize) B bodies, 1,000 streams)")

        let muster = try MusterChild.executable()
        let data = directory.url.appendingPathComponent("data")
        let (rate, output) = try await onThread("muster-import") { () throws -> (Double, String) in
            let start = ContinuousClock.now
            let outcome = try ExternalCommand(muster, ["import", "--data", data.path, lines.path, "--json"]).run()
            return (Double(settings.events) / seconds(since: start), outcome.output)
        }
        guard output.contains("\"imported\":\(settings.events)") else {
            throw BenchError.command("muster import did not import every line: \(output.suffix(400))")
        }
        let figure = Figure(label: "muster import", value: rate, unit: "events/s")

        let rawDirectory = directory.url.appendingPathComponent("raw")
        try FileManager.default.createDirectory(at: rawDirectory, withIntermediateDirectories: true)
        let raw = try await onThread("raw-lmdb") {
            try RawLMDB(directory: rawDirectory).appendRate(
                eventsPerCommit: 1_000, valueSize: settings.bodySize, duration: settings.seconds)
        }
        report.comparisons.append(
            Comparison(
                "import / raw 1,000-per-commit", figure: figure,
                baseline: Figure(label: "raw LMDB 1,000/commit", value: raw.events, unit: "events/s")))

        guard let postgres = PostgresPeer.locate() else {
            report.notes.append("PostgreSQL not installed: no COPY baseline (Tools/install-deps installs it)")
            return
        }
        let copy = try await onThread("postgres-copy") { try postgres.copyRate(file: lines, lines: settings.events) }
        report.comparisons.append(
            Comparison(
                "import / postgres COPY", figure: figure,
                baseline: Figure(label: "postgres COPY into jsonb", value: copy.rate, unit: "lines/s")))
        report.notes.append(copy.version)
    }

    /// Types of an application's own: Muster refuses to import its own (the samples' `ResponseReceived` …).
    static let types = ["Reading", "Visit", "Inspection", "Delivery", "Check"]

    /// Writes `count` lines, 100 consecutive ones to a stream over 1,000 streams; returns the file's size.
    static func write(_ count: Int, bodySize: Int, to url: URL) throws -> Int {
        var text = ""
        var size = 0
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        for n in 0..<count {
            text +=
                "{\"stream\":\"stream-\(n / 100 % 1000)\",\"type\":\"\(types[n % types.count])\","
            text += "\"body\":\(SampleBody.text(n, size: bodySize))}\n"
            if text.utf8.count > 1 << 20 || n == count - 1 {
                size += text.utf8.count
                try file.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        return size
    }
}
