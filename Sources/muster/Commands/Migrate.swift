import ArgumentParser
import EventLog
import Foundation

/// `muster migrate`: upgrades a data directory to this release's format and rebuilds what needs it.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upgrade the data directory to this release's format, then rebuild outdated projections.",
        discussion: """
            Each format migration commits together with its new format number, so an interrupted \
            migration resumes where it stopped when run again. A directory that needed either is then compared \
            with a fresh rebuild, projection by projection, and what differs is rebuilt. `muster serve` does the \
            same on start.
            """)

    @OptionGroup var data: DataOptions
    @Flag(help: "Print the result as JSON.") var json = false

    private struct Result: Encodable {
        var fromFormat: UInt32
        var format: UInt32
        var migrations: [String]
        var rebuilt: [String]
        /// Projections rebuilt because, brought forward, they still differed from a fresh rebuild.
        var repaired: [String]
        var alreadyCurrent: Bool
    }

    func run() async throws {
        let log = try data.open(allowOlderFormat: true)
        defer { log.close() }
        let from = try log.storedFormatVersion()
        let upgrade = try await Self.bringForward(log)
        if !upgrade.rebuilt.isEmpty || !upgrade.repaired.isEmpty { try await log.catchUpAsyncProjections() }
        let result = Result(
            fromFormat: from, format: try log.storedFormatVersion(), migrations: upgrade.migrations,
            rebuilt: upgrade.rebuilt, repaired: upgrade.repaired,
            alreadyCurrent: upgrade.migrations.isEmpty && upgrade.rebuilt.isEmpty)
        if json {
            try Output.json(result)
        } else if result.alreadyCurrent {
            Output.line("already current: format \(result.format), every projection up to date")
        } else {
            for summary in upgrade.migrations { Output.line("migrated: \(summary)") }
            for name in upgrade.rebuilt { Output.line("rebuilt: \(name)") }
            for name in upgrade.repaired { Output.line("rebuilt: \(name) (it differed from a fresh rebuild)") }
            Output.line("data directory now at format \(result.format) (was \(from))")
        }
    }

    /// What bringing a data directory forward did.
    struct Upgrade {
        /// The summaries of the store migrations applied, in order.
        var migrations: [String]
        /// The projections rebuilt because their version changed (or they are new).
        var rebuilt: [String]
        /// The projections rebuilt afterwards because they still differed from a fresh rebuild.
        var repaired: [String]
    }

    /// Runs this release's store migrations the directory has not had, then rebuilds the projections whose
    /// version changed, with progress on stderr. When it did either, the directory came from another release, and
    /// every projection is then compared with a fresh rebuild (as `muster verify` does) and rebuilt where it
    /// differs: 0.1.0 could write one table's rows into another's (crossed table handles, fixed since), and a
    /// projection whose version did not change would keep them. `muster migrate` and `muster serve` (on start)
    /// both call this, so a previous release's directory is brought forward either way. Open `log` with
    /// `allowOlderFormat`.
    static func bringForward(_ log: EventLog) async throws -> Upgrade {
        let migrations = try await log.migrate { step in
            FileHandle.standardError.write(
                Data("migrate: format \(step.format) of \(step.target): \(step.summary)\n".utf8))
        }
        let pending = try log.projectionsNeedingRebuild()
        try await rebuild(pending, in: log)
        guard !migrations.isEmpty || !pending.isEmpty else {
            return Upgrade(migrations: migrations, rebuilt: pending, repaired: [])
        }
        let check = try await log.verify(progress: PhaseProgress("check").report)
        let repaired = check.projections.filter { $0.compared && $0.differences > 0 }.map(\.name)
        try await rebuild(repaired, in: log)
        return Upgrade(migrations: migrations, rebuilt: pending, repaired: repaired)
    }

    private static func rebuild(_ names: [String], in log: EventLog) async throws {
        guard !names.isEmpty else { return }
        let bars = Dictionary(uniqueKeysWithValues: names.map { ($0, Progress("rebuild \($0)")) })
        try await log.rebuild(names) { step in
            bars[step.projection]?.update(step.isFinished ? step.head : step.checkpoint, of: step.head)
        }
    }
}
