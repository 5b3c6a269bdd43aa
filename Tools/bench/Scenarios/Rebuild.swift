import EventLog
import EventLogTesting
import Foundation

/// Rebuilds every projection from a log of `--events` events, against a raw LMDB cursor scan of the
/// same log's `events` table; Muster's own read scan and JSONDecoder give context.
struct Rebuild: Scenario {
    let name = "rebuild"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let directory = try TemporaryDirectory("bench-rebuild")
        defer { settings.discard(directory) }
        let built = try await LogFiller.fill(directory.url, events: settings.events, bodySize: settings.bodySize)

        let scans = try await onThread("raw-scan") { () -> [Double] in
            let raw = try RawLMDB(directory: directory.url, readOnly: true)
            return try (0..<3).map { _ in
                let start = ContinuousClock.now
                let (entries, _, _) = try raw.scan(table: "events")
                return Double(entries) / seconds(since: start)
            }
        }
        let scan = scans.sorted()[1]
        report.notes.append(
            "raw scan runs (events/s): \(scans.map { Figure.grouped($0) }.joined(separator: ", ")); median used")

        let log = try EventLog(directory: directory.url)
        defer { log.close() }
        let head = Double(log.head)

        let readStart = ContinuousClock.now
        var read = 0
        _ = try log.read { reader in
            try reader.events(EventQuery()) { _ in
                read += 1
                return true
            }
        }
        report.context.append(
            Figure(
                label: "muster read scan (decode + CRC)", value: Double(read) / seconds(since: readStart),
                unit: "events/s"))

        let start = ContinuousClock.now
        try await log.rebuild()
        let rebuilt = head / seconds(since: start)
        report.comparisons.append(
            Comparison(
                "rebuild all / raw scan", figure: Figure(label: "muster rebuild", value: rebuilt, unit: "events/s"),
                baseline: Figure(label: "raw LMDB cursor scan", value: scan, unit: "events/s")))
        report.notes.append(
            "\(Int(head)) events, \(settings.bodySize) B bodies; rebuild covers \(EventLog.builtInProjections.map(\.name).joined(separator: ", "))"
        )

        for projection in EventLog.builtInProjections.map(\.name) {
            let start = ContinuousClock.now
            try await log.rebuild([projection])
            report.context.append(
                Figure(label: "rebuild \(projection) alone", value: head / seconds(since: start), unit: "events/s"))
        }
        report.context.append(Figure(label: "JSONDecoder, one body", value: try decodeRate(settings), unit: "events/s"))

        // Last: gigabytes appended at full speed leave the disk busy writing back, which slowed a rebuild after it.
        let rawDirectory = try TemporaryDirectory("bench-rebuild-raw")
        defer { settings.discard(rawDirectory) }
        let rawAppend = try await onThread("raw-append") {
            try RawLMDB(directory: rawDirectory.url).appendRate(
                eventsPerCommit: 1_000, valueSize: settings.bodySize, duration: min(settings.seconds, 3))
        }
        report.comparisons.append(
            Comparison(
                "append 10,000 per perform / raw 1,000-per-commit",
                figure: Figure(label: "muster log builder", value: built, unit: "events/s"),
                baseline: Figure(label: "raw LMDB 1,000/commit", value: rawAppend.events, unit: "events/s")))
    }

    /// Decodes sample bodies with Foundation's JSONDecoder for about a second (a tenth in smoke mode).
    private func decodeRate(_ settings: Settings) throws -> Double {
        let bodies = (0..<1000).map { Data(SampleBody.text($0, size: settings.bodySize).utf8) }
        let decoder = JSONDecoder()
        let budget = settings.smoke ? 0.1 : 1.0
        var decoded = 0
        let start = ContinuousClock.now
        repeat {
            for body in bodies { _ = try decoder.decode(SampleBody.self, from: body) }
            decoded += bodies.count
        } while seconds(since: start) < budget
        return Double(decoded) / seconds(since: start)
    }
}
