import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Synchronization

/// A namespace's primary on three nats-servers (stream and leases of three replicas) with a replica following it:
/// durable appends answered once replicated against the same appends answered once local, in the same run; how far
/// the replica trails (per event, from the primary's answer to the replica's append); and how long a take-over takes
/// once the primary stops renewing its lease.
struct Cluster: Scenario {
    let name = "cluster"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        try await NATSCluster.running(servers: 3) { servers in
            try await measure(settings, servers, into: &report)
        }
    }

    private func measure(_ settings: Settings, _ servers: NATSCluster, into report: inout ScenarioReport) async throws {
        let leaseTime = Duration.seconds(settings.smoke ? 2 : 6)
        let local = try await appendRun(settings, servers, .local, leaseTime: leaseTime, takeOver: false)
        let replicated = try await appendRun(
            settings, servers, .replicated(timeout: .seconds(10)), leaseTime: leaseTime, takeOver: true)
        report.comparisons.append(
            Comparison(
                "replicated / local acknowledgement",
                figure: Figure(
                    label: "acknowledged once replicated", value: replicated.eventsPerSecond, unit: "events/s"),
                baseline: Figure(label: "acknowledged once local", value: local.eventsPerSecond, unit: "events/s")))
        var lag = local.lag
        report.context.append(Figure(label: "replica lag p50 (local acks)", value: lag.percentile(0.5), unit: "ms"))
        report.context.append(Figure(label: "replica lag p99 (local acks)", value: lag.percentile(0.99), unit: "ms"))
        var replicatedLag = replicated.lag
        report.context.append(
            Figure(label: "replica lag p50 (replicated acks)", value: replicatedLag.percentile(0.5), unit: "ms"))
        report.context.append(
            Figure(label: "replica lag p99 (replicated acks)", value: replicatedLag.percentile(0.99), unit: "ms"))
        // The lag target asks what a replica trails by under a load replication carries: local acks again, paced at
        // half the rate replicated acks reached in this run.
        let pace = replicated.eventsPerSecond / 2
        let paced = try await appendRun(settings, servers, .local, leaseTime: leaseTime, takeOver: false, pace: pace)
        var pacedLag = paced.lag
        let pacing = "local acks, paced at \(Int(pace)) events/s"
        report.context.append(Figure(label: "replica lag p50 (\(pacing))", value: pacedLag.percentile(0.5), unit: "ms"))
        report.context.append(
            Figure(label: "replica lag p99 (\(pacing))", value: pacedLag.percentile(0.99), unit: "ms"))
        var acks = replicated.acks
        report.context.append(Figure(label: "replicated ack p99", value: acks.percentile(0.99), unit: "ms"))
        var localAcks = local.acks
        report.context.append(Figure(label: "local ack p99", value: localAcks.percentile(0.99), unit: "ms"))
        if let takeOver = replicated.takeOver {
            report.context.append(Figure(label: "take-over after the primary stopped", value: takeOver, unit: "s"))
            report.notes.append(
                "take-over: \(String(format: "%.2f", takeOver)) s with a lease of \(leaseTime) (target ≤ 2× the lease)")
        }
        report.notes.append(
            "\(settings.appenders) appenders of \(settings.bodySize) B events for \(settings.seconds) s each run; three nats-servers, stream and leases of three replicas, primary and replica in this process"
        )
    }

    private struct Run {
        var eventsPerSecond: Double
        var acks: Latencies
        var lag: Latencies
        var takeOver: Double?
    }

    /// Appends for `settings.seconds` on a fresh namespace's primary while a replica follows.
    private func appendRun(
        _ settings: Settings, _ servers: NATSCluster, _ acknowledgement: Acknowledgement, leaseTime: Duration,
        takeOver: Bool, pace: Double? = nil
    ) async throws -> Run {
        let namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        let (primaryDirectory, replicaDirectory) = (
            try TemporaryDirectory("bench-primary"), try TemporaryDirectory("bench-replica")
        )
        defer {
            settings.discard(primaryDirectory)
            settings.discard(replicaDirectory)
        }
        let primary = try await Node(
            "primary", namespace, servers, primaryDirectory, acknowledgement: acknowledgement, leaseTime: leaseTime)
        let primaryTask = Task { await primary.part.run() }
        try await waitFor(seconds: 30) { primary.part.role == .primary }
        let replica = try await Node(
            "replica", namespace, servers, replicaDirectory, acknowledgement: acknowledgement, leaseTime: leaseTime)
        let replicaTask = Task { await replica.part.run() }

        // When each position was answered on the primary; the replica's watcher turns them into lags.
        let answered = AnswerTimes()
        let watching = Task { () -> Latencies in
            var lag = Latencies()
            var seen = replica.log.head
            while !Task.isCancelled {
                await replica.log.waitForCommit(beyond: seen, timeout: .milliseconds(5))
                let head = replica.log.head
                guard head > seen else { continue }
                let now = ContinuousClock.now
                answered.times.withLock { times in
                    for position in (seen + 1)...head {
                        if let at = times.removeValue(forKey: position) { lag.record(now - at) }
                    }
                }
                seen = head
            }
            return lag
        }
        let deadline = ContinuousClock.now + .seconds(settings.seconds)
        let start = ContinuousClock.now
        let size = settings.bodySize
        let acks = try await withThrowingTaskGroup(of: Latencies.self) { group in
            for appender in 0..<settings.appenders {
                group.addTask {
                    var mine = Latencies()
                    var n = appender
                    // Paced: each appender's k-th event is due at start + k × appenders / pace (staggered).
                    let interval = pace.map { Duration.seconds(Double(settings.appenders) / $0) }
                    var due = start + (interval ?? .zero) * (Double(appender) / Double(settings.appenders))
                    while ContinuousClock.now < deadline {
                        if let interval {
                            try await Task.sleep(until: due, clock: .continuous)
                            due += interval
                        }
                        let sent = ContinuousClock.now
                        let result = try await primary.log.append(
                            AppendRequest(
                                namespace: namespace, stream: "appender-\(appender)",
                                events: [SampleBody.event(n, size: size)]))
                        let now = ContinuousClock.now
                        mine.record(now - sent)
                        answered.times.withLock { $0[result.positions[0]] = now }
                        n += settings.appenders
                    }
                    return mine
                }
            }
            var all = Latencies()
            for try await mine in group { all.merge(mine) }
            return all
        }
        let elapsed = seconds(since: start)
        try await waitFor(seconds: 60) { replica.log.head >= primary.log.head }
        watching.cancel()
        let lag = await watching.value

        var takeOverSeconds: Double?
        if takeOver {
            let stopped = ContinuousClock.now
            primaryTask.cancel()  // stops renewing without giving the lease up, as a primary that died
            await primaryTask.value
            try await waitFor(seconds: 60) { replica.part.role == .primary }
            takeOverSeconds = seconds(since: stopped)
        }
        primaryTask.cancel()
        replicaTask.cancel()
        await primaryTask.value
        await replicaTask.value
        await primary.close()
        await replica.close()
        return Run(
            eventsPerSecond: Double(acks.count) / elapsed, acks: acks, lag: lag, takeOver: takeOverSeconds)
    }

    /// One node of the namespace: its log, its connection, its part.
    private struct Node: Sendable {
        let log: EventLog
        let connection: NATSConnection
        let part: ReplicatedNamespace

        init(
            _ name: String, _ namespace: String, _ servers: NATSCluster, _ directory: TemporaryDirectory,
            acknowledgement: Acknowledgement, leaseTime: Duration
        ) async throws {
            log = try EventLog(directory: directory.url)
            connection = try await NATSConnection.connect(servers.configuration(name: name))
            let leases = try await connection.keyValueBucket(NamespaceLease.configuration(time: leaseTime, replicas: 3))
            part = ReplicatedNamespace(
                log: log, namespace: namespace, connection: connection, leases: leases,
                options: .init(
                    holder: .init(node: name, url: "http://\(name).invalid"), leaseTime: leaseTime,
                    acknowledgement: acknowledgement, replicas: 3))
        }

        func close() async {
            await connection.close()
            log.close()
        }
    }

    /// Polls `condition` every 10 ms until it holds; throws after `seconds`.
    private func waitFor(seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw BenchError.command("the cluster did not get there within \(seconds) s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// When each position was answered on the primary, shared by the appenders and the replica's watcher.
private final class AnswerTimes: Sendable {
    let times = Mutex<[UInt64: ContinuousClock.Instant]>([:])
}
