import ArgumentParser
import EventLog
import Foundation

/// `muster status`: where the log and its projections stand. Stores nothing.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the log head, projections, map size and statistics (stores nothing).",
        discussion: """
            The statistics are shown as the async projection has them; `lag` is how many events it is \
            behind the head (a running server or `muster rebuild` catches it up). Like every command that opens \
            the data directory, it makes a directory readable by other users its owner's only (0700, files 0600), \
            and says so.
            """)

    @OptionGroup var data: DataOptions
    @Flag(help: "Print one JSON document.") var json = false

    /// The JSON document `muster status --json` prints.
    struct Report: Encodable {
        struct Projection: Encodable {
            var name: String
            var mode: ProjectionMode
            var version: UInt32
            var storedVersion: UInt32?
            var generation: UInt64?
            var checkpoint: UInt64
            var isCurrent: Bool
            /// Events behind the head.
            var lag: UInt64
            /// Checkpoint of a rebuild under way, with the head it is catching up to.
            var rebuild: Rebuild?
        }
        struct Rebuild: Encodable {
            var checkpoint: UInt64
            var head: UInt64
        }
        struct Statistics: Encodable {
            var checkpoint: UInt64
            var lag: UInt64
            var rows: [LogStatistics.Row]
        }

        var directory: String
        var head: UInt64
        var events: UInt64
        var formatVersion: UInt32
        var releaseFormatVersion: UInt32
        /// The summaries of this release's store migrations the directory has not had, in order.
        var pendingMigrations: [String]
        /// The projections `muster migrate` (or `serve` on start) would rebuild: their version changed, or new.
        var pendingRebuilds: [String]
        var mapSize: Int
        var mapUsed: Int
        /// Media blobs: how many, their raw bytes and the bytes stored after zstd.
        var blobs: BlobTotals
        var projections: [Projection]
        /// Nil when the statistics projection has no tables yet.
        var statistics: Statistics?
    }

    func run() async throws {
        // An older format is shown (with what to do) rather than refused: status only reads.
        let log = try data.open(allowOlderFormat: true)
        defer { log.close() }
        let report = try Self.report(log)
        if json {
            try Output.json(report)
        } else {
            printHuman(report)
        }
    }

    static func report(_ log: EventLog) throws -> Report {
        let format = try log.storedFormatVersion()
        let blobs = try log.blobs.totals()
        let pendingMigrations = log.configuration.migrations.filter { $0.fromFormat >= format }
            .sorted { $0.fromFormat < $1.fromFormat }.map(\.summary)
        let pendingRebuilds = try log.projectionsNeedingRebuild()
        return try log.read { reader in
            let head = reader.head
            let projections = try reader.projectionStatuses().map { s in
                Report.Projection(
                    name: s.name, mode: s.mode, version: s.version, storedVersion: s.storedVersion,
                    generation: s.generation, checkpoint: s.checkpoint, isCurrent: s.isCurrent,
                    lag: head > s.checkpoint ? head - s.checkpoint : 0,
                    rebuild: s.rebuildCheckpoint.map { Report.Rebuild(checkpoint: $0, head: head) })
            }
            var statistics: Report.Statistics?
            if let state = try? reader.projection(LogStatistics.name),
                let checkpoint = projections.first(where: { $0.name == LogStatistics.name })?.checkpoint
            {
                let rows = try LogStatistics.rows(state).sorted { ($0.namespace, $0.type) < ($1.namespace, $1.type) }
                statistics = Report.Statistics(
                    checkpoint: checkpoint, lag: head > checkpoint ? head - checkpoint : 0, rows: rows)
            }
            return Report(
                directory: log.directory.path, head: head, events: head, formatVersion: format,
                releaseFormatVersion: log.configuration.formatVersion, pendingMigrations: pendingMigrations,
                pendingRebuilds: pendingRebuilds, mapSize: log.environment.mapSize,
                mapUsed: log.environment.usedSize, blobs: blobs, projections: projections, statistics: statistics)
        }
    }

    private func printHuman(_ r: Report) {
        Output.line("data directory  \(r.directory)")
        Output.line("log head        \(r.head) (\(r.events) events)")
        var format = "format          \(r.formatVersion)"
        if r.formatVersion < r.releaseFormatVersion {
            format += " — this release needs \(r.releaseFormatVersion): run `muster migrate`"
        }
        Output.line(format)
        if !r.pendingMigrations.isEmpty || !r.pendingRebuilds.isEmpty {
            let steps = r.pendingMigrations + r.pendingRebuilds.map { "rebuild \($0)" }
            Output.line("pending         \(steps.joined(separator: "; ")) — run `muster migrate`")
        }
        Output.line("map             \(Self.bytes(r.mapUsed)) used of \(Self.bytes(r.mapSize))")
        Output.line(
            "blobs           \(r.blobs.count): \(Self.bytes(Int(r.blobs.rawBytes))) raw, "
                + "\(Self.bytes(Int(r.blobs.storedBytes))) stored")
        Output.line("")
        Output.table(
            ["PROJECTION", "MODE", "VERSION", "STORED", "GENERATION", "CHECKPOINT", "LAG", "STATE"],
            r.projections.map { p in
                let state: String
                if let rebuild = p.rebuild {
                    state = "rebuilding \(rebuild.checkpoint)/\(rebuild.head)"
                } else if p.isCurrent {
                    state = "current"
                } else if p.storedVersion != p.version || p.generation == nil {
                    state = "needs rebuild"
                } else {
                    state = "behind"
                }
                return [
                    p.name, p.mode.rawValue, String(p.version), p.storedVersion.map(String.init) ?? "-",
                    p.generation.map(String.init) ?? "-", String(p.checkpoint), String(p.lag), state,
                ]
            })
        guard let statistics = r.statistics else { return }
        Output.line("")
        Output.line("statistics (as of position \(statistics.checkpoint), \(statistics.lag) behind the head)")
        Output.table(
            ["NAMESPACE", "TYPE", "EVENTS", "BODY BYTES"],
            statistics.rows.map { [$0.namespace, $0.type, String($0.events), String($0.bodyBytes)] })
    }

    /// `0 B`, `512 B`, `44.0 KiB`, `16.0 GiB`.
    private static func bytes(_ n: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(n)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
    }
}
