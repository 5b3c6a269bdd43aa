import ArgumentParser
import EventLog
import Foundation

/// `muster rebuild`: rebuilds projections from the log, then catches up the async ones.
struct Rebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild projections from the log (all by default).",
        discussion: """
            Each projection is rebuilt into fresh tables and swapped in atomically once it has caught \
            up; readers keep the old tables until then. Interrupting leaves the rebuild resumable: run \
            the command again to continue where it stopped.
            """)

    @OptionGroup var data: DataOptions
    @Argument(help: "Projections to rebuild (default: all).") var projections: [String] = []
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        let log = try data.open()
        defer { log.close() }
        let known = log.configuration.projections.map(\.name)
        if let unknown = projections.first(where: { !known.contains($0) }) {
            throw CommandFailure.invalid(
                "no projection named \(String(reflecting: unknown)); known: \(known.joined(separator: ", "))")
        }
        // A name given twice is rebuilt once.
        var requested: [String] = []
        for name in projections where !requested.contains(name) { requested.append(name) }
        let names = requested.isEmpty ? known : requested
        let bars = Dictionary(uniqueKeysWithValues: names.map { ($0, Progress("rebuild \($0)")) })
        let stop = StopSignal()
        let work = Task {
            try await log.rebuild(names) { step in
                bars[step.projection]?.update(step.isFinished ? step.head : step.checkpoint, of: step.head)
            }
            try await log.catchUpAsyncProjections()
        }
        stop.onSignal { work.cancel() }
        do {
            try await work.value
        } catch  where stop.hasFired {
            let again = (["muster", "rebuild"] + requested).joined(separator: " ")
            throw CommandFailure.failed("rebuild interrupted; its progress is kept — run `\(again)` again to resume")
        }
        withExtendedLifetime(stop) {}
        let statuses = try log.read { try $0.projectionStatuses() }
        if json {
            try Output.json(Result(rebuilt: names, head: log.head, projections: statuses))
        } else {
            for status in statuses where names.contains(status.name) {
                let state = status.isCurrent ? "current" : "not current"
                Output.line(
                    "rebuilt \(status.name): generation \(status.generation ?? 0), checkpoint \(status.checkpoint), \(state)"
                )
            }
        }
    }

    private struct Result: Encodable {
        var rebuilt: [String]
        var head: UInt64
        var projections: [ProjectionStatus]
    }
}
