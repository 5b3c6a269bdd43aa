import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication

/// What several namespaces cost one node: `muster serve --cluster … --namespaces` with 1, 10 and 50 namespaces (one
/// nats-server, one replica per stream, so the figures are the node's own) — how long until the node is the primary of
/// all of them, and what the idle node then holds: memory, threads, descriptors, CPU. Each level is compared with the
/// node of one namespace in the same run.
struct ClusterNamespaces: Scenario {
    let name = "cluster-namespaces"

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        try await NATSCluster.running(servers: 1) { servers in
            try await measure(settings, servers, into: &report)
        }
    }

    /// One idle node's figures.
    struct Node {
        var start: Double
        var sample: ProcessSample
        var cores: Double
    }

    private func measure(_ settings: Settings, _ servers: NATSCluster, into report: inout ScenarioReport) async throws {
        let connection = try await NATSConnection.connect(
            servers.configuration(name: "bench-cluster-namespaces", requestTimeout: .seconds(20)))
        defer { Task { await connection.close() } }
        let window = settings.smoke ? 1.0 : 5.0
        var baseline: Node?
        let levels = settings.smoke ? [1, 3] : [1, 10, 50]
        for (run, count) in levels.enumerated() {
            let node = try await idleNode(
                namespaces: (0..<count).map { "r\(run)-ns\($0)" }, servers, connection, window: window)
            let one = baseline ?? node
            baseline = one
            let label = "\(count) namespace\(count == 1 ? "" : "s")"
            report.comparisons.append(
                Comparison(
                    "\(label): resident memory",
                    figure: Figure(label: label, value: node.sample.residentMB, unit: "MiB"),
                    baseline: Figure(label: "1 namespace", value: one.sample.residentMB, unit: "MiB")))
            report.comparisons.append(
                Comparison(
                    "\(label): threads", figure: Figure(label: label, value: Double(node.sample.threads), unit: ""),
                    baseline: Figure(label: "1 namespace", value: Double(one.sample.threads), unit: "")))
            report.context.append(
                Figure(label: "\(label): until primary of all", value: node.start, unit: "s"))
            report.context.append(
                Figure(label: "\(label): idle CPU", value: node.cores * 100, unit: "% of a core"))
            report.context.append(
                Figure(label: "\(label): anonymous memory", value: node.sample.anonymousMB, unit: "MiB"))
            report.context.append(
                Figure(label: "\(label): descriptors", value: Double(node.sample.descriptors), unit: ""))
        }
        report.notes.append(
            "one muster serve --cluster --namespaces node (release build) on one nats-server, --cluster-replicas 1, "
                + "6 s leases; figures read from /proc once the node is the primary of every namespace, CPU over "
                + "\(window) s idle")
    }

    /// Starts a node serving `namespaces`, waits until it holds every lease, measures it idle, and stops it.
    private func idleNode(
        namespaces: [String], _ servers: NATSCluster, _ connection: NATSConnection, window: Double
    ) async throws -> Node {
        let directory = try TemporaryDirectory("bench-namespaces")
        defer { directory.remove() }
        let started = ContinuousClock.now
        let node = try await MusterChild.start(
            [
                "--data", directory.url.appendingPathComponent("data").path, "--cluster", servers.urls, "--node",
                "bench", "--advertise", "http://127.0.0.1:1", "--cluster-replicas", "1", "--namespaces",
                namespaces.joined(separator: ","), "--no-push",
            ], logFile: directory.url.appendingPathComponent("serve.log"))
        do {
            let leases = try await connection.existingKeyValueBucket(NamespaceLease.bucket)
            let keys = Set(namespaces.map { "ns." + NamespaceStream(namespace: $0).suffix })
            let deadline = ContinuousClock.now + .seconds(120)
            while try await !keys.isSubset(of: Set(leases.keys())) {
                guard ContinuousClock.now < deadline else {
                    throw BenchError.command("the node did not take the leases of \(namespaces.count) namespaces")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            let start = seconds(since: started)
            let before = ServerUsage.cpuSeconds(node.pid)
            let idleFrom = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(Int(window * 1000)))
            let cores = (ServerUsage.cpuSeconds(node.pid) - before) / seconds(since: idleFrom)
            let sample = try ProcessProbe(pid: node.pid).sample()
            try await node.stop()
            return Node(start: start, sample: sample, cores: cores)
        } catch {
            await node.forceStop()
            throw error
        }
    }
}
