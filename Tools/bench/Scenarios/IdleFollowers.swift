import EventLog
import EventLogTesting
import Foundation
import Synchronization

/// What live tails cost while nothing happens: 1,000 followers (`EventLog.follow`, as each open live stream has one)
/// caught up and waiting, the process's CPU time over `--seconds` — against the same number of tails each looking
/// again every 50 ms on its own (a timed `waitForCommit`, then a read of the head), which is how `follow` waited
/// before session 24. Then one commit, and how long until every follower has it.
struct IdleFollowers: Scenario {
    let name = "idle-followers"
    static let followers = 1000

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let directory = try TemporaryDirectory("bench-idle")
        defer { settings.discard(directory) }
        let log = try EventLog(directory: directory.url.appendingPathComponent("data"))
        defer { log.close() }
        try await log.append(AppendRequest(stream: "s", events: [NewEvent(type: "Ping", body: .json("{}"))]))
        let window = settings.smoke ? 1.0 : settings.seconds

        // Baseline: each tail polls on its own.
        let polling = try await cpuSeconds(over: window) {
            for _ in 0..<Self.followers {
                $0.addTask {
                    while !Task.isCancelled {
                        let head = log.head
                        await log.waitForCommit(beyond: head, timeout: .milliseconds(50))
                        _ = try? log.read { $0.head }
                    }
                }
            }
        }

        // Muster: followers caught up, waiting on the shared signal; then one commit reaches them all.
        let seen = Counter()
        let from = log.head + 1
        let following = try await cpuSeconds(over: window) { group in
            for _ in 0..<Self.followers {
                group.addTask {
                    for try await _ in log.follow(EventQuery(type: "Ping", from: from)) {
                        seen.add()
                        return
                    }
                }
            }
        } after: {
            let start = ContinuousClock.now
            try await log.append(AppendRequest(stream: "s", events: [NewEvent(type: "Ping", body: .json("{}"))]))
            while seen.value < Self.followers { try await Task.sleep(for: .milliseconds(1)) }
            report.notes.append(
                "one commit reached all \(Self.followers) waiting followers in \(String(format: "%.1f", seconds(since: start) * 1000)) ms"
            )
        }
        report.comparisons.append(
            Comparison(
                "idle CPU / per-tail polling",
                figure: Figure(
                    label: "\(Self.followers) followers", value: following / window * 1000, unit: "ms CPU/s"),
                baseline: Figure(label: "each polling every 50 ms", value: polling / window * 1000, unit: "ms CPU/s")))
    }

    /// The process's CPU seconds (user and system) while the tasks `start` adds run for `seconds`; `after` runs
    /// before they are cancelled.
    private func cpuSeconds(
        over seconds: Double, _ start: (inout ThrowingTaskGroup<Void, any Error>) -> Void,
        after: () async throws -> Void = {}
    ) async throws -> Double {
        try await withThrowingTaskGroup(of: Void.self) { group in
            start(&group)
            try await Task.sleep(for: .milliseconds(200))  // settle: every tail waiting
            let before = Self.cpuTime()
            try await Task.sleep(for: .seconds(seconds))
            let used = Self.cpuTime() - before
            try await after()
            group.cancelAll()
            try await group.waitForAll()
            return used
        }
    }

    private static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// A count several tasks add to.
private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
