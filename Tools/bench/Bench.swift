import ArgumentParser
import Foundation
import Logging
import MusterHTTP

/// Runs the store's benchmarks: Muster against raw LMDB and real peers, measured in the same run.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Muster's store benchmarks: each figure with its same-run baseline and the ratio.",
        discussion:
            "Scenarios: \(allScenarios.map(\.name).joined(separator: ", ")). Build with -c release for real figures."
    )

    @Flag(help: "Every scenario for about a second with tiny sizes, no PostgreSQL; for Tools/test.")
    var smoke = false

    @Option(help: "Run only this scenario.")
    var scenario: String?

    @Option(help: "Seconds per timed loop (default 10, 1 with --smoke).")
    var seconds: Double?

    @Option(
        help: "Events in the rebuild scenario's log and lines in the import's (default 1,000,000, 20,000 with --smoke)."
    )
    var events: Int?

    @Option(
        name: .customLong("backup-mb"),
        help: "Size of the backup scenario's data directory in MiB (default 1024, 8 with --smoke).")
    var backupMegabytes: Int?

    @Option(name: .customLong("blob-mb"), help: "Size of each blob file in MiB (default 256, 4 with --smoke).")
    var blobMegabytes: Int?

    @Option(help: "Concurrent appenders in durable-append.")
    var appenders = 64

    @Option(name: .customLong("body-size"), help: "Bytes of each event body.")
    var bodySize = 400

    @Option(help: "Users (one Web Push target each) in push-fanout (default 100,000, 1,000 with --smoke).")
    var users: Int?

    @Option(help: "HTTP/1 connections to the endpoint in push-fanout, Muster and plain client alike (default 8).")
    var connections: Int?

    @Option(
        name: .customLong("mqtt-messages"),
        help: "Messages the 1,000 devices publish in mqtt-ingest, per side (default 100,000, 2,000 with --smoke).")
    var mqttMessages: Int?

    @Option(
        name: .customLong("mqtt-receive-maximum"),
        help:
            "MQTT 5 receive maximum of both mqtt-ingest subscribers, in batches of half of it (default: the client's, 2,000)."
    )
    var mqttReceiveMaximum: Int?

    @Option(help: "Minutes the soak runs, the first fifth a warm-up (default 10; about 3 s with --smoke).")
    var minutes: Double = 10

    @Flag(name: .customLong("keep-data"), help: "Keep the temporary data directories for inspection.")
    var keepData = false

    @Option(help: "Also write every result as JSON to this file.")
    var json: String?

    func validate() throws {
        if let scenario, !allScenarios.contains(where: { $0.name == scenario }) {
            throw ValidationError(
                "unknown scenario \(scenario); known: \(allScenarios.map(\.name).joined(separator: ", "))")
        }
        if appenders < 1 { throw ValidationError("--appenders must be at least 1") }
        if let users, users < 1 { throw ValidationError("--users must be at least 1") }
        if let connections, connections < 1 { throw ValidationError("--connections must be at least 1") }
        if let mqttMessages, mqttMessages < 1 { throw ValidationError("--mqtt-messages must be at least 1") }
        if let mqttReceiveMaximum, !(1...65535).contains(mqttReceiveMaximum) {
            throw ValidationError("--mqtt-receive-maximum must be 1…65535")
        }
        if !(minutes >= 0.5) { throw ValidationError("--minutes must be at least 0.5") }
    }

    func run() async throws {
        // The servers' log lines as `muster serve` writes them (text, standard error), at the same cost.
        LoggingSystem.bootstrap { TextLogHandler.standardError(label: $0) }
        let settings = Settings(
            seconds: seconds ?? (smoke ? 1 : 10), events: events ?? (smoke ? 20_000 : 1_000_000),
            backupMegabytes: backupMegabytes ?? (smoke ? 8 : 1024), blobMegabytes: blobMegabytes ?? (smoke ? 4 : 256),
            appenders: appenders, bodySize: bodySize, smoke: smoke, keepData: keepData,
            users: users ?? (smoke ? 1_000 : 100_000), connections: connections,
            mqttMessages: mqttMessages ?? (smoke ? 2_000 : 100_000), mqttReceiveMaximum: mqttReceiveMaximum,
            minutes: minutes)
        #if DEBUG
            let build = "debug"
            say("warning: debug build; figures are for smoke testing only (swift build -c release)")
        #else
            let build = "release"
        #endif
        say(ScenarioReport.header)
        var reports: [ScenarioReport] = []
        for scenario in allScenarios where self.scenario == nil || scenario.name == self.scenario {
            FileHandle.standardError.write(Data("bench: running \(scenario.name)…\n".utf8))
            var report = ScenarioReport(scenario.name)
            do {
                try await scenario.run(settings, into: &report)
            } catch {
                report.error = "\(error)"
            }
            report.lines.forEach(say)
            reports.append(report)
        }
        if let json {
            let run = RunReport(
                date: Date(), command: CommandLine.arguments.joined(separator: " "), build: build,
                cores: ProcessInfo.processInfo.activeProcessorCount, lmdb: RawLMDB.version, zstd: ZstdLibrary.version,
                smoke: smoke, scenarios: reports)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            try encoder.encode(run).write(to: URL(fileURLWithPath: json))
        }
        let failed = reports.filter { $0.error != nil }.map(\.scenario)
        if !failed.isEmpty {
            FileHandle.standardError.write(Data("bench: failed: \(failed.joined(separator: ", "))\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// Prints a line at once (unbuffered), so a long run shows each scenario as it finishes.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
