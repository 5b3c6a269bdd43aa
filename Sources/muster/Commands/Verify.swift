import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster verify`: checks the log, its indexes and commit chain, every projection against a rebuild, and the blobs.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check event checksums, indexes, the commit chain, projections (against a rebuild), blobs, push-source secrets.",
        discussion: "Runs on one read snapshot while the server keeps writing. Exit status 1 when a problem is found.")

    @OptionGroup var data: DataOptions
    @Flag(help: "Print the report as JSON.") var json = false

    func run() async throws {
        let log = try data.open()
        defer { log.close() }
        var report = try await log.verify(progress: PhaseProgress("verify").report)
        // The secrets the push sources sign with are files beside the log, which a copy can leave behind.
        for missing in try PushSources(log: log).missingSecrets() { report.add("secrets", missing) }
        report.problems = report.problems.map(\.withCommand)
        if json {
            try Output.json(report)
        } else {
            Output.table(
                ["projection", "mode", "compared up to", "differences"],
                report.projections.map {
                    [
                        $0.name, $0.mode.rawValue, $0.compared ? "\($0.comparedUpTo)" : "not compared",
                        "\($0.differences)",
                    ]
                })
            Output.line("")
            Output.line(
                "head \(report.head), \(report.events) events, \(report.blobs) blobs checked, \(report.unreferencedChunks) unreferenced blob chunks"
            )
            if let hash = report.headHash {
                Output.line("commit chain: \(report.chainLinks) links recomputed, head hash \(hash)")
            }
            for problem in report.problems { Output.line("problem: \(problem)") }
            if report.problemCount > report.problems.count {
                Output.line("… and \(report.problemCount - report.problems.count) more problems")
            }
            Output.line(report.isHealthy ? "ok: no problems found" : "\(report.problemCount) problem(s) found")
        }
        if !report.isHealthy {
            let problems = report.problemCount == 1 ? "1 problem" : "\(report.problemCount) problems"
            throw CommandFailure.failed("verify found \(problems) in \(log.directory.path); see the report above")
        }
    }
}
