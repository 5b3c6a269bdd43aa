import EventLog
import EventLogTesting
import Foundation
import Muster
import MusterHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Location ingest over HTTP: `wrk` on loopback posting fixes of 10,000 devices walking over a
/// city with 100,000 geofences (after a warm-up run that puts them in their fences) (`POST /api/v1/locations`, each a `LocationReported` — and the
/// transitions and rule decisions it causes — committed before the 200), against the trivial
/// `GET /api/v1/server` of the same server in the same run.
struct HTTPLocations: Scenario {
    let name = "http-locations"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        guard let wrk = ExternalCommand.find("wrk") else {
            throw BenchError.command("wrk is not installed (apt install wrk; Tools/install-deps installs it)")
        }
        let directory = try TemporaryDirectory("bench-locations")
        defer { settings.discard(directory) }
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let commits = CommitTally()
        configuration.commitObserver = { commits.observe($0) }
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }
        try await Directory(log: log).addUser("bench", password: "bench-password")
        let fences = settings.smoke ? 1_000 : 100_000
        try await Self.defineFences(fences, log: log)

        let figures = try await withLoopbackServer(log: log, label: "bench-locations") { base in
            var report = ScenarioReport(name)
            let token = try await Sessions(log: log).login(username: "bench", password: "bench-password").accessToken
            // One fix first, so the areas are compiled before the clock runs.
            try await Self.warmUp(base: base, token: token)
            let scripts = try TemporaryDirectory("bench-wrk")
            defer { scripts.remove() }
            let script = scripts.url.appendingPathComponent("locations.lua")
            try Data(Self.script(token: token).utf8).write(to: script)
            let seconds = max(1, Int(settings.seconds.rounded()))
            // A first run puts every device in its fences (their first fixes enter ~7 each); the
            // measured run then walks them on from the same starting points.
            let warmUp = try await HTTPSubmission.wrk(
                wrk, ["-s", script.path, "\(base)/api/v1/locations"], seconds: seconds)
            guard warmUp.failures == 0 else { throw BenchError.command("\(warmUp.failures) warm-up fixes failed") }
            let transitionsBefore = try log.read { try $0.events(EventQuery(type: AreaTransition.type)).count }
            let headBefore = log.head
            commits.arm(target: Int.max)
            let io = ProcessIO.now()
            let cpuBefore = CPUTime.now()
            let posted = try await HTTPSubmission.wrk(
                wrk, ["-s", script.path, "\(base)/api/v1/locations"], seconds: seconds)
            let cpuBetween = CPUTime.now()
            let tally = commits.disarm()
            let written = ProcessIO.perCommit(since: io, commits: tally.commits)
            let amplification = ProcessIO.diskBytesPerByte(since: io)
            let recorded = log.head - headBefore
            let transitions =
                try log.read { try $0.events(EventQuery(type: AreaTransition.type)).count } - transitionsBefore
            let cpuTrivial = CPUTime.now()
            let trivial = try await HTTPSubmission.wrk(wrk, ["\(base)/api/v1/server"], seconds: seconds)
            let cpuAfter = CPUTime.now()
            guard posted.failures == 0 else {
                throw BenchError.command("\(posted.failures) fixes were not answered 200")
            }
            guard recorded >= UInt64(posted.requests) else {
                throw BenchError.command("wrk saw \(posted.requests) answers but only \(recorded) events were recorded")
            }
            report.comparisons.append(
                Comparison(
                    "durable location ingest, \(fences.formatted()) geofences, \(HTTPSubmission.connections) connections",
                    figure: Figure(label: "POST /api/v1/locations", value: posted.perSecond, unit: "req/s"),
                    baseline: Figure(label: "GET /api/v1/server", value: trivial.perSecond, unit: "req/s")))
            report.context.append(Figure(label: "location p99", value: posted.p99Milliseconds, unit: "ms"))
            // The machine's speed swings within minutes; what a fix costs in CPU swings less than fixes per second.
            HTTPSubmission.reportCPU(cpuBetween - cpuBefore, requests: posted.requests, route: "fix", into: &report)
            HTTPSubmission.reportCPU(
                cpuAfter - cpuTrivial, requests: trivial.requests, route: "trivial route", into: &report)
            report.context.append(Figure(label: "events recorded", value: Double(recorded), unit: "events"))
            report.context.append(Figure(label: "area transitions", value: Double(transitions), unit: "events"))
            report.context.append(Figure(label: "writer commits", value: Double(tally.commits), unit: "commits"))
            let fixesPerCommit = Double(posted.requests) / Double(max(tally.commits, 1))
            report.context.append(Figure(label: "fixes per commit, mean", value: fixesPerCommit, unit: "fixes"))
            report.context.append(
                Figure(
                    label: "writer busy (sum of commit times / wall time)",
                    value: 100 * tally.commitTime / Double(seconds), unit: "%"))
            report.context.append(
                Figure(
                    label: "writer time per fix (commit times / fixes)",
                    value: 1_000_000 * tally.commitTime / Double(max(posted.requests, 1)), unit: "µs"))
            if let written {
                // Every dirty page of a commit is written (LMDB copies a page on its first change in a transaction):
                // what a fix costs the disk, and the kernel on the writer thread.
                report.context.append(Figure(label: "written per commit", value: written.bytes / 1024, unit: "KiB"))
                report.context.append(
                    Figure(label: "written per fix", value: written.bytes / fixesPerCommit / 1024, unit: "KiB"))
                report.context.append(Figure(label: "write calls per commit", value: written.calls, unit: "calls"))
            }
            if let amplification {
                // Large page-cache folios made this ×12 before `PageCachePrimer` (BENCHMARKS.md, session 25).
                report.context.append(
                    Figure(label: "disk writes per byte LMDB wrote", value: amplification, unit: "×"))
            }
            return report
        }
        report.comparisons += figures.comparisons
        report.context += figures.context
    }

    /// Circles of 20–200 m spread over 0.15° × 0.2° of Paris, from a fixed seed, with one rule each.
    static func defineFences(_ count: Int, log: EventLog) async throws {
        var random = CitySeed(seed: 2026)
        var batch: [Area] = []
        for i in 0..<count {
            let latitude = 48.80 + random.unit() * 0.15
            let longitude = 2.25 + random.unit() * 0.2
            let radius = 20 + random.unit() * 180
            batch.append(
                Area(
                    id: "f\(i)", region: .geofence(latitude: latitude, longitude: longitude, radius: radius),
                    rules: [AreaRule(id: "r", trigger: "on_entry", maxEvents: 1)]))
            if batch.count == 5_000 {
                try await Areas(log: log).define(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try await Areas(log: log).define(batch) }
    }

    static func warmUp(base: String, token: String) async throws {
        var request = URLRequest(url: URL(string: "\(base)/api/v1/locations")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"deviceId":"warm-up","lat":48.85,"lng":2.35}"#.utf8)
        let prepared = request
        _ = try await onThread("warm-up") {
            let done = DispatchSemaphore(value: 0)
            let task = URLSession.shared.dataTask(with: prepared) { _, _, _ in done.signal() }
            task.resume()
            done.wait()
        }
    }

    /// 10,000 devices (5,000 per wrk thread) starting at fixed places over the fenced area and
    /// walking up to ±20 m per fix.
    static func script(token: String) -> String {
        """
        local counter = 0
        setup = function(thread)
          thread:set("tid", counter)
          counter = counter + 1
        end
        local devices = {}
        request = function()
          local i = math.random(1, 5000)
          local d = devices[i]
          if d == nil then
            d = {48.80 + ((i * 7919 + tid * 104729) % 15000) / 100000,
                 2.25 + ((i * 6151 + tid * 3571) % 20000) / 100000}
            devices[i] = d
          end
          d[1] = d[1] + (math.random() - 0.5) * 0.00036
          d[2] = d[2] + (math.random() - 0.5) * 0.00054
          local body = string.format('{"deviceId":"t%d-d%d","lat":%.6f,"lng":%.6f,"accuracy":10}',
            tid, i, d[1], d[2])
          return wrk.format("POST", nil, {["Content-Type"] = "application/json",
            ["Authorization"] = "Bearer \(token)"}, body)
        end
        """
    }
}

/// A small deterministic generator (CitySeed64), so every run fences the same city.
struct CitySeed {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// In [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
