import AsyncHTTPClient
import EventLog
import EventLogTesting
import Foundation
import Muster
import Synchronization

/// `soak`: `muster serve` as a child process under a fixed mixed load for `--minutes` (default 10): logins and
/// refreshes, sends to a group and the answers, location fixes through geofences, document uploads, inbox reads and
/// live streams opened and dropped (10,000 in ten minutes). After a warm-up (the first fifth) and a pause in which
/// the server settles, its memory, descriptors and threads are sampled from /proc over the measured window, and the
/// server settles once more at the end. Fails when descriptors or threads grew between the two settled points, a
/// live stream is still open, anonymous memory grew faster than `memoryBound`, a request failed, or the token tables
/// hold more than the sweep leaves. `--smoke` runs about three seconds and fails only when the server does not start or
/// stop cleanly or the token tables hold more than the sweep leaves; the rest it reports.
struct Soak: Scenario {
    let name = "soak"
    /// The most anonymous resident memory may grow after the warm-up, in MB per minute (least squares over the
    /// window). See BENCHMARKS.md, "soak (issue 16)", for why this figure.
    static let memoryBound = 1.0

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let smoke = settings.smoke
        let total = Duration.seconds(smoke ? 3 : settings.minutes * 60)
        let warmUp = smoke ? Duration.seconds(1) : total / 5
        let window = total - warmUp
        let keepAlive = smoke ? 0.5 : 15.0
        // Every user's token is replaced by a login every 11 s (every ~3 s in a smoke, whose tokens must outlive
        // its settling), well within the access token's life; refresh tokens expire within the run, so the sweep
        // is exercised (not in a smoke: a token lives at least 10 s).
        var rates = SoakRates()
        let crew = smoke ? 3 : 10
        let chains = smoke ? 2 : 8
        if smoke { rates.logins = 4 }
        let accessLifetime = smoke ? 10 : 30
        let refreshLifetime = smoke ? 10 : 60
        let directory = try TemporaryDirectory("bench-soak")
        defer { settings.discard(directory) }
        let began = ContinuousClock.now
        try await Self.prepare(directory.url, crew: SoakLoad.crew(crew), fences: smoke ? 200 : 10_000)
        Self.progress(
            String(format: "users, group and fences written (%.1f s); starting muster serve", seconds(since: began)))

        let child = try await MusterChild.start(
            [
                "--data", directory.url.path, "--rate-limit", "1000000", "--access-token-lifetime",
                String(accessLifetime),
                "--refresh-token-lifetime", String(refreshLifetime), "--stream-keep-alive", String(keepAlive),
            ], logFile: directory.url.appendingPathComponent("serve.log"))
        let run: SoakRun
        do {
            run = try await Self.load(
                child, crew: crew, chains: chains, rates: rates, warmUp: warmUp, window: window,
                sampleEvery: smoke ? .milliseconds(250) : .seconds(5),
                settle: .seconds(keepAlive + 15), held: smoke ? 0.5 : 2)
        } catch {
            await child.forceStop()
            throw error
        }
        Self.progress("stopping muster serve")
        let exit = try await child.stop()
        let tokens = try SoakTokens.read(directory.url)

        var problems = tokens.problems
        if exit != 0 { problems.append("muster serve exited with \(exit) on SIGTERM (see its log)") }
        if smoke {
            // A few seconds on a machine shared with the other checks of Tools/test: a stream the server has not yet
            // noticed closed (BENCHMARKS.md, soak: a few in 10,000 never are), a request slowed past its deadline or a
            // thread started late are reported, and fail only the full run.
            report.notes += run.problems.map { "seen in the smoke run, asserted only in the full one: \($0)" }
        } else {
            problems += run.problems
            if run.anonymousSlope > Self.memoryBound {
                problems.append(
                    String(
                        format: "anonymous memory grew %.2f MB/min after the warm-up (bound %.1f)", run.anonymousSlope,
                        Self.memoryBound))
            }
            if tokens.issued <= tokens.expiries {
                problems.append("no token pair was swept: \(tokens.issued) issued, \(tokens.expiries) kept")
            }
        }
        report.context += run.figures + tokens.figures
        report.notes += run.notes(memoryBound: Self.memoryBound, smoke: smoke)
        report.notes.append(
            "token pairs: \(tokens.issued) issued, \(tokens.expiries) kept (\(tokens.live) live at the last sessions "
                + "event, \(tokens.expiredLeft) expired and not yet swept), \(tokens.sessions) sessions; "
                + "refresh tokens live \(refreshLifetime) s")
        guard problems.isEmpty else { throw BenchError.command(problems.joined(separator: "; ")) }
    }

    /// The users, the crew's group and the fences, written before the server opens the directory.
    static func prepare(_ directory: URL, crew: [String], fences: Int) async throws {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory, configuration: configuration)
        defer { log.close() }
        let users = Directory(log: log)
        // Two at a time: each password is hashed, which takes a core for a while.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, user) in (crew + [SoakLoad.churn, SoakLoad.administrator]).enumerated() {
                if index >= 2 { try await group.next() }
                group.addTask {
                    try await users.addUser(
                        user, password: SoakLoad.password, isAdmin: user == SoakLoad.administrator)
                }
            }
            try await group.waitForAll()
        }
        try await users.defineGroup(SoakLoad.group, members: crew)
        try await HTTPLocations.defineFences(fences, log: log)
    }

    /// Warm-up, settle, measured window, settle: the samples and both settled points.
    static func load(
        _ child: MusterChild, crew: Int, chains: Int, rates: SoakRates, warmUp: Duration, window: Duration,
        sampleEvery: Duration,
        settle: Duration, held: Double
    ) async throws -> SoakRun {
        let probe = ProcessProbe(pid: child.pid)
        let load = SoakLoad(base: child.base, port: child.port, crew: crew, chains: chains)
        let samples = SampleList()
        let sampler = Task {
            while !Task.isCancelled {
                if let sample = try? probe.sample() { samples.list.withLock { $0.append(sample) } }
                try? await Task.sleep(for: sampleEvery)
            }
        }
        defer { sampler.cancel() }
        let warming = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await load.prepare(warming)
            progress("logged in; warming up for \(warmUp)")
            await load.run(warming, rates: rates, for: warmUp)
            try await warming.shutdown()
        } catch {
            try? await warming.shutdown()
            throw error
        }
        let before = try await settled(child, probe, within: settle, held: held)
        progress(
            "warm-up done and settled: \(before.sample.descriptors) descriptors, \(before.sample.threads) threads, "
                + String(
                    format: "%.1f MB anonymous; measuring for %.0f s", before.sample.anonymousMB,
                    Double(window.components.seconds)))

        let measuring = HTTPClient(eventLoopGroupProvider: .singleton)
        let windowStart: Double
        let windowEnd: Double
        do {
            try await load.prepare(measuring, chains: false)
            windowStart = seconds(since: probe.start)
            await load.run(measuring, rates: rates, for: window)
            windowEnd = seconds(since: probe.start)
            try await measuring.shutdown()
        } catch {
            try? await measuring.shutdown()
            throw error
        }
        let after = try await settled(child, probe, within: settle, held: held)
        progress("window done and settled: \(after.sample.descriptors) descriptors, \(after.sample.threads) threads")
        let all = samples.list.withLock { $0 }
        let inWindow = all.filter { $0.at >= windowStart && $0.at <= windowEnd }
        let threadsBeforeWindow = all.filter { $0.at < windowStart }.map(\.threads).reduce(before.sample.threads, max)
        return SoakRun(
            before: before, threadsBeforeWindow: threadsBeforeWindow, after: after, window: inWindow,
            counts: load.counts, rates: rates)
    }

    /// Waits until the server has no live stream open (a dropped one ends at its next keep-alive) and its
    /// descriptor count held for `held` seconds, then samples it; samples it as it is when that does not happen
    /// `within` (the streams still open are then a problem the run reports).
    static func settled(_ child: MusterChild, _ probe: ProcessProbe, within limit: Duration, held: Double) async throws
        -> SoakRun.Settled
    {
        let deadline = ContinuousClock.now + limit
        var streams = -1
        var previous: ProcessSample?
        while ContinuousClock.now < deadline {
            // /proc first: the previous /metrics connection has had a poll's time to close.
            let sample = try probe.sample()
            streams = try await openStreams(port: child.port)
            if streams == 0, let previous, previous.descriptors == sample.descriptors,
                sample.at - previous.at >= held
            {
                return SoakRun.Settled(sample: sample, streams: streams, threadNames: probe.threadNames())
            }
            if streams != 0 || previous?.descriptors != sample.descriptors { previous = sample }
            // Half a second between looks: the /metrics connection of one look is closed by the next.
            try await Task.sleep(for: .milliseconds(500))
        }
        // Not settled: measured as it is, so the run goes on and reports (the streams count as a problem).
        let sample = try probe.sample()
        progress("not settled within \(limit): \(streams) live streams open, \(sample.descriptors) descriptors")
        return SoakRun.Settled(sample: sample, streams: streams, threadNames: probe.threadNames())
    }

    /// A line on stderr, so a long run shows where it is.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("bench: soak: \(line)\n".utf8))
    }

    /// `muster_sse_connections` from the server's /metrics, read over a connection of its own that it closes.
    static func openStreams(port: Int) async throws -> Int {
        let (status, body) = try await onThread("soak-metrics") { try LoopbackSocket.get(port: port, path: "/metrics") }
        guard status == 200 else { throw BenchError.command("GET /metrics answered \(status)") }
        guard
            let line = body.split(separator: "\n").first(where: {
                $0.hasPrefix("muster_sse_connections ") || $0.hasPrefix("muster_sse_connections{")
            }),
            let value = line.split(separator: " ").last.flatMap({ Double($0) })
        else { return 0 }
        return Int(value)
    }
}

/// The samples the soak's sampler task takes.
private final class SampleList: Sendable {
    let list = Mutex<[ProcessSample]>([])
}
