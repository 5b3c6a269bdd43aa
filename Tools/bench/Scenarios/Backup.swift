import EventLog
import EventLogTesting
import Foundation
import Synchronization

/// A hot backup of a data directory filled to `--backup-mb` while writers keep appending, against
/// `mdb_copy -c` on the same directory.
struct Backup: Scenario {
    let name = "backup"

    /// Muster's backup: a hot, compacted copy plus its manifest, while the writers keep appending; `phases` notes
    /// when each phase the backup reports began.
    static let musterBackup: (@Sendable (EventLog, URL, PhaseClock) async throws -> Void)? = {
        log, destination, phases in
        _ = try await log.backup(to: destination, progress: { phases.note($0.phase) })
    }

    static let writers = 4

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let directory = try TemporaryDirectory("bench-backup")
        defer { settings.discard(directory) }
        let source = directory.url.appendingPathComponent("data")
        let log = try EventLog(directory: source)
        defer { log.close() }
        let target = settings.backupMegabytes << 20
        let fillStart = ContinuousClock.now
        let filled = try await LogFiller.fill(log, toBytes: target, bodySize: settings.bodySize)
        let megabytes = Double(log.environment.usedSize) / 1e6
        report.notes.append(
            "data directory: \(filled) events, \(String(format: "%.0f", megabytes)) MB used, filled in \(String(format: "%.1f", seconds(since: fillStart))) s"
        )

        var baseline: Figure?
        if let mdbCopy = ExternalCommand.find("mdb_copy") {
            let destination = directory.url.appendingPathComponent("mdb_copy")
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            let (copySeconds, writers) = try await whileWriting(log, settings) {
                try await onThread("mdb_copy") {
                    try ExternalCommand(mdbCopy, ["-c", source.path, destination.path]).run().seconds
                }
            }
            baseline = Figure(label: "mdb_copy -c", value: megabytes / copySeconds, unit: "MB/s")
            report.context.append(Figure(label: "writer max ack during mdb_copy", value: writers.maximum, unit: "ms"))
            report.context.append(
                Figure(
                    label: "writes during mdb_copy (\(Self.writers) writers)", value: Double(writers.count),
                    unit: "appends"))
            try? FileManager.default.removeItem(at: destination)
        } else {
            report.notes.append("skipped: mdb_copy not installed (apt-get install lmdb-utils)")
        }

        guard let musterBackup = Self.musterBackup else {
            report.comparisons.append(
                Comparison(
                    "backup / mdb_copy -c", figure: nil, baseline: baseline,
                    status: "pending: muster backup API not on this branch"))
            return
        }
        let destination = directory.url.appendingPathComponent("muster")
        let phases = PhaseClock()
        let (backupSeconds, writers) = try await whileWriting(log, settings) {
            let start = ContinuousClock.now
            try await musterBackup(log, destination, phases)
            phases.note("manifest and secrets")
            return seconds(since: start)
        }
        report.notes.append("muster backup's phases: \(phases.summary)")
        report.comparisons.append(
            Comparison(
                "backup / mdb_copy -c",
                figure: Figure(label: "muster backup", value: megabytes / backupSeconds, unit: "MB/s"),
                baseline: baseline))
        report.context.append(Figure(label: "writer max ack during muster backup", value: writers.maximum, unit: "ms"))
    }

    /// Runs `copy` while `writers` appenders keep appending; returns its result and their ack latencies.
    private func whileWriting<T: Sendable>(
        _ log: EventLog, _ settings: Settings, _ copy: @escaping @Sendable () async throws -> T
    ) async throws -> (T, Latencies) {
        let stop = StopFlag()
        let size = settings.bodySize
        return try await withThrowingTaskGroup(of: Latencies.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    var latencies = Latencies()
                    var n = writer
                    while !stop.isSet {
                        let sent = ContinuousClock.now
                        try await log.append(
                            AppendRequest(stream: "writer-\(writer)", events: [SampleBody.event(n, size: size)]))
                        latencies.record(ContinuousClock.now - sent)
                        n += Self.writers
                    }
                    return latencies
                }
            }
            let result: T
            do {
                result = try await copy()
            } catch {
                stop.set()
                throw error
            }
            stop.set()
            var all = Latencies()
            for try await latencies in group { all.merge(latencies) }
            return (result, all)
        }
    }
}

/// When each phase of an operation began, as its progress reports them.
final class PhaseClock: Sendable {
    private let started = Mutex<[(phase: String, at: ContinuousClock.Instant)]>([])

    /// Notes `phase` when it differs from the last one noted.
    func note(_ phase: String) {
        started.withLock { started in
            if started.last?.phase != phase { started.append((phase, .now)) }
        }
    }

    /// Each phase and how long it took (up to the next one's start), e.g. `copy 2.10 s, events 0.41 s`.
    var summary: String {
        let started = started.withLock { $0 }
        return zip(started, started.dropFirst()).map { phase, next in
            let duration = next.at - phase.at
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return "\(phase.phase) \(String(format: "%.2f", seconds)) s"
        }.joined(separator: ", ")
    }
}
