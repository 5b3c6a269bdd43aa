import ArgumentParser
import EventLog
import Foundation

/// `muster migrate`: upgrades a data directory to this release's format and rebuilds what needs it.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upgrade the data directory to this release's format, then rebuild outdated projections.",
        discussion: """
            Each format migration commits together with its new format number, so an interrupted \
            migration resumes where it stopped when run again.
            """)

    @OptionGroup var data: DataOptions
    @Flag(help: "Print the result as JSON.") var json = false

    private struct Result: Encodable {
        var fromFormat: UInt32
        var format: UInt32
        var migrations: [String]
        var rebuilt: [String]
        var alreadyCurrent: Bool
    }

    func run() async throws {
        let log = try data.open(allowOlderFormat: true)
        defer { log.close() }
        let from = try log.storedFormatVersion()
        let upgrade = try await Self.bringForward(log)
        if !upgrade.rebuilt.isEmpty { try await log.catchUpAsyncProjections() }
        let result = Result(
            fromFormat: from, format: try log.storedFormatVersion(), migrations: upgrade.migrations,
            rebuilt: upgrade.rebuilt, alreadyCurrent: upgrade.migrations.isEmpty && upgrade.rebuilt.isEmpty)
        if json {
            try Output.json(result)
        } else if result.alreadyCurrent {
            Output.line("already current: format \(result.format), every projection up to date")
        } else {
            for summary in upgrade.migrations { Output.line("migrated: \(summary)") }
            for name in upgrade.rebuilt { Output.line("rebuilt: \(name)") }
            Output.line("data directory now at format \(result.format) (was \(from))")
        }
    }

    /// What bringing a data directory forward did.
    struct Upgrade {
        /// The summaries of the store migrations applied, in order.
        var migrations: [String]
        /// The projections rebuilt because their version changed (or they are new).
        var rebuilt: [String]
    }

    /// Runs this release's store migrations the directory has not had, then rebuilds the projections whose
    /// version changed, with progress on stderr. `muster migrate` and `muster serve` (on start) both call it, so
    /// a previous release's directory is brought forward either way. Open `log` with `allowOlderFormat`.
    static func bringForward(_ log: EventLog) async throws -> Upgrade {
        let migrations = try await log.migrate { step in
            FileHandle.standardError.write(
                Data("migrate: format \(step.format) of \(step.target): \(step.summary)\n".utf8))
        }
        let pending = try log.projectionsNeedingRebuild()
        if !pending.isEmpty {
            let bars = Dictionary(uniqueKeysWithValues: pending.map { ($0, Progress("rebuild \($0)")) })
            try await log.rebuild(pending) { step in
                bars[step.projection]?.update(step.isFinished ? step.head : step.checkpoint, of: step.head)
            }
        }
        return Upgrade(migrations: migrations, rebuilt: pending)
    }
}
