import EventLog
import EventLogTesting
import Foundation

/// 64 concurrent appenders, each awaiting its own durable ack, against raw LMDB commits and
/// PostgreSQL INSERTs with synchronous_commit=on.
struct DurableAppend: Scenario {
    let name = "durable-append"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let muster = try await measureMuster(settings)
        var latencies = muster.latencies
        let figure = Figure(label: "muster", value: muster.eventsPerSecond, unit: "events/s")
        report.context.append(Figure(label: "muster p50 ack", value: latencies.percentile(0.50), unit: "ms"))
        report.context.append(Figure(label: "muster p99 ack", value: latencies.percentile(0.99), unit: "ms"))
        report.context.append(Figure(label: "muster max ack", value: latencies.maximum, unit: "ms"))
        report.context.append(Figure(label: "muster commits", value: muster.commitsPerSecond, unit: "commits/s"))
        report.context.append(
            Figure(label: "muster events per commit", value: muster.eventsPerSecond / muster.commitsPerSecond, unit: "")
        )
        if let written = muster.written {
            report.context.append(Figure(label: "muster written per commit", value: written.bytes, unit: "B"))
            report.context.append(Figure(label: "muster pwrite calls per commit", value: written.calls, unit: ""))
        }
        report.notes.append(
            "\(settings.appenders) appenders, \(latencies.count) appends of \(settings.bodySize) B bodies in \(String(format: "%.1f", muster.seconds)) s"
        )

        let directory = try TemporaryDirectory("bench-raw")
        defer { settings.discard(directory) }
        let (one, hundred) = try await onThread("raw-lmdb") {
            let raw = try RawLMDB(directory: directory.url)
            let one = try raw.appendRate(eventsPerCommit: 1, valueSize: settings.bodySize, duration: settings.seconds)
            let hundred = try raw.appendRate(
                eventsPerCommit: 100, valueSize: settings.bodySize, duration: settings.seconds)
            return (one, hundred)
        }
        report.comparisons.append(
            Comparison(
                "append 64 / raw 1-per-commit", figure: figure,
                baseline: Figure(label: "raw LMDB 1/commit", value: one.commits, unit: "commits/s")))
        if let written = one.written {
            report.context.append(
                Figure(label: "raw LMDB 1/commit written per commit", value: written.bytes, unit: "B"))
            report.context.append(
                Figure(label: "raw LMDB 1/commit pwrite calls per commit", value: written.calls, unit: ""))
        }
        report.context.append(Figure(label: "raw LMDB 100/commit", value: hundred.events, unit: "events/s"))
        report.context.append(Figure(label: "raw LMDB 100/commit", value: hundred.commits, unit: "commits/s"))
        if let written = hundred.written {
            report.context.append(
                Figure(label: "raw LMDB 100/commit written per commit", value: written.bytes, unit: "B"))
            report.context.append(
                Figure(label: "raw LMDB 100/commit pwrite calls per commit", value: written.calls, unit: ""))
        }

        try await postgres(settings, figure: figure, into: &report)
    }

    private struct MusterRun {
        var eventsPerSecond: Double
        var commitsPerSecond: Double
        var written: (bytes: Double, calls: Double)?
        var seconds: Double
        var latencies: Latencies
    }

    private func measureMuster(_ settings: Settings) async throws -> MusterRun {
        let directory = try TemporaryDirectory("bench-append")
        defer { settings.discard(directory) }
        let log = try EventLog(directory: directory.url)
        let deadline = ContinuousClock.now + .seconds(settings.seconds)
        let io = ProcessIO.now()
        let start = ContinuousClock.now
        let size = settings.bodySize
        let latencies: Latencies
        do {
            latencies = try await withThrowingTaskGroup(of: Latencies.self) { group in
                for appender in 0..<settings.appenders {
                    group.addTask {
                        var mine = Latencies()
                        var n = appender
                        while ContinuousClock.now < deadline {
                            let event = SampleBody.event(n, size: size)
                            let request = AppendRequest(stream: "appender-\(appender)", events: [event])
                            let sent = ContinuousClock.now
                            try await log.append(request)
                            mine.record(ContinuousClock.now - sent)
                            n += settings.appenders
                        }
                        return mine
                    }
                }
                var all = Latencies()
                for try await mine in group { all.merge(mine) }
                return all
            }
        } catch {
            log.close()
            throw error
        }
        let elapsed = seconds(since: start)
        log.close()
        // The log's own commit count, read back once it is closed: LMDB's last transaction id.
        let commits = try RawLMDB(directory: directory.url, readOnly: true).lastTransactionId
        let written = ProcessIO.perCommit(since: io, commits: commits)
        return MusterRun(
            eventsPerSecond: Double(latencies.count) / elapsed, commitsPerSecond: Double(commits) / elapsed,
            written: written, seconds: elapsed, latencies: latencies)
    }

    private func postgres(_ settings: Settings, figure: Figure, into report: inout ScenarioReport) async throws {
        let name = "append 64 / postgres"
        if settings.smoke {
            let status = "skipped: PostgreSQL is not run in smoke mode"
            report.comparisons.append(Comparison(name, figure: figure, baseline: nil, status: status))
            return
        }
        guard let peer = PostgresPeer.locate() else {
            let status = "skipped: PostgreSQL not installed (apt-get install postgresql)"
            report.comparisons.append(Comparison(name, figure: figure, baseline: nil, status: status))
            return
        }
        let body = SampleBody.text(0, size: settings.bodySize)
        let setup =
            "CREATE TABLE events(id bigserial primary key, stream text, type text, body jsonb, recorded_at timestamptz default now())"
        let script =
            "INSERT INTO events(stream, type, body) VALUES ('appender-' || :client_id, 'FormSubmitted', '\(body)'::jsonb);\n"
        let clients = settings.appenders
        let seconds = max(1, Int(settings.seconds.rounded()))
        let result = try await onThread("pgbench") {
            try peer.bench(setup: setup, script: script, clients: clients, seconds: seconds)
        }
        let label = "postgres INSERT (pgbench \(clients) clients, sync commit)"
        report.comparisons.append(
            Comparison(name, figure: figure, baseline: Figure(label: label, value: result.tps, unit: "tps")))
        if let latency = result.latencyAverageMilliseconds {
            report.context.append(Figure(label: "postgres latency average", value: latency, unit: "ms"))
        }
        report.notes.append("peer: \(result.version), \(result.transactions ?? 0) transactions in \(seconds) s")
    }
}
