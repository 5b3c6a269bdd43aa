import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication

/// How far the cluster's NATS side goes with many namespaces: three nats-servers holding 100, 300 and 1,000 namespace
/// streams of three replicas (one RAFT group each, as `muster serve --cluster` makes them) — how fast they are made,
/// what the idle servers then spend (CPU, memory), and how many lease renewals a second they take (each namespace's
/// primary renews its lease every third of the lease time), against the rate the namespaces need.
struct ClusterScale: Scenario {
    let name = "cluster-scale"
    /// Renewals in flight at once, as many primaries renewing at the same time.
    static let concurrentRenewals = 32
    static let leaseTime = Duration.seconds(6)

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        try await NATSCluster.running(servers: 3) { servers in
            try await measure(settings, servers, into: &report)
        }
    }

    private func measure(_ settings: Settings, _ servers: NATSCluster, into report: inout ScenarioReport) async throws {
        let connection = try await NATSConnection.connect(
            servers.configuration(name: "bench-cluster-scale", requestTimeout: .seconds(20)))
        let leases = try await connection.keyValueBucket(
            NamespaceLease.configuration(time: Self.leaseTime, replicas: 3))
        let window = settings.smoke ? 1.0 : 5.0
        var made = 0
        for level in settings.smoke ? [5, 10] : [100, 300, 1_000] {
            let start = ContinuousClock.now
            try await forEach(made..<level, concurrently: 8) { n in
                _ = try await connection.createOrUpdateStream(
                    NamespaceStream(namespace: "scale-\(n)").configuration(replicas: 3))
            }
            report.context.append(
                Figure(
                    label: "\(level) namespaces: streams made (R3)",
                    value: Double(level - made) / seconds(since: start), unit: "streams/s"))
            made = level

            let idle = try await ServerUsage.measure(servers, seconds: window) {}
            report.context.append(
                Figure(
                    label: "\(level) namespaces: idle nats-servers, CPU", value: idle.cores * 100, unit: "% of a core"))
            report.context.append(
                Figure(label: "\(level) namespaces: nats-servers' memory", value: idle.residentMegabytes, unit: "MiB"))

            var renewals = 0
            let renewing = try await ServerUsage.measure(servers, seconds: window) {
                let deadline = ContinuousClock.now + .seconds(window)
                renewals = try await Self.renewUntil(deadline, leases: leases, namespaces: level)
            }
            let rate = Double(renewals) / window
            let needed = Double(level) / (Double(Self.leaseTime.components.seconds) / 3)
            report.comparisons.append(
                Comparison(
                    "\(level) namespaces: lease renewals",
                    figure: Figure(label: "renewals taken", value: rate, unit: "/s"),
                    baseline: Figure(label: "renewals \(level) namespaces need", value: needed, unit: "/s")))
            report.context.append(
                Figure(
                    label: "\(level) namespaces: nats-servers' CPU while renewing", value: renewing.cores * 100,
                    unit: "% of a core"))
        }
        report.notes.append(
            "three nats-servers on loopback sharing the machine's cores with this process; leases of \(Self.leaseTime) "
                + "renewed every third of it; \(Self.concurrentRenewals) renewals in flight")
    }

    /// Writes each namespace's lease key in turn, `concurrentRenewals` at a time, until `deadline`; returns how many.
    static func renewUntil(_ deadline: ContinuousClock.Instant, leases: KeyValueBucket, namespaces: Int) async throws
        -> Int
    {
        let value = Array(#"{"node":"bench","url":"http://127.0.0.1:1"}"#.utf8)
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for lane in 0..<concurrentRenewals {
                group.addTask {
                    var done = 0
                    var n = lane
                    while ContinuousClock.now < deadline {
                        _ = try await leases.put("ns.scale-\(n % namespaces)", value: value)
                        done += 1
                        n += concurrentRenewals
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// Runs `body` for each of `items`, at most `width` at once.
    private func forEach(
        _ items: Range<Int>, concurrently width: Int, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = items.lowerBound
            func startNext() {
                guard next < items.upperBound else { return }
                let n = next
                group.addTask { try await body(n) }
                next += 1
            }
            for _ in 0..<width { startNext() }
            while try await group.next() != nil { startNext() }
        }
    }
}

/// CPU and memory of the cluster's nats-server processes, read from /proc while `body` runs for `seconds`.
struct ServerUsage {
    /// CPU used, in cores (1 = one core busy the whole time).
    var cores: Double
    /// Resident memory of all servers at the end.
    var residentMegabytes: Double

    static func measure(
        _ servers: NATSCluster, seconds window: Double, _ body: () async throws -> Void
    ) async throws -> ServerUsage {
        let processes = serverProcesses(servers)
        let before = processes.map(cpuSeconds)
        let start = ContinuousClock.now
        try await body()
        let left = window - seconds(since: start)
        // The measuring window itself: what the servers spend over it is the figure.
        if left > 0 { try await Task.sleep(for: .milliseconds(Int(left * 1000))) }
        let elapsed = seconds(since: start)
        let used = zip(processes.map(cpuSeconds), before).map { $0 - $1 }.reduce(0, +)
        let resident = processes.map(residentBytes).reduce(0, +)
        return ServerUsage(cores: used / elapsed, residentMegabytes: Double(resident) / 1_048_576)
    }

    /// The process ids of the nats-servers whose command line names the cluster's directory.
    static func serverProcesses(_ servers: NATSCluster) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let command = ProcFile.bytes("/proc/\(pid)/cmdline") else { return false }
            let text = String(decoding: command.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return text.contains("nats-server") && text.contains(servers.directory.path)
        }
    }

    /// User and system CPU seconds of `pid` so far (`/proc/PID/stat` fields 14 and 15).
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // After the command's closing parenthesis: field 3 (state) is fields[0], so 14 and 15 are [11] and [12].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `VmRSS` of `pid` in bytes.
    static func residentBytes(_ pid: Int32) -> Int {
        guard let status = ProcFile.text("/proc/\(pid)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
