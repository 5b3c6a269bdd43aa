import ArgumentParser
import Foundation
import NATS
import Replication

/// `muster cluster`: the namespaces of a cluster (`serve --cluster`), read from and asked through NATS JetStream.
struct ClusterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "A cluster's namespaces: who is primary, each node's position; moving a namespace to a node.",
        subcommands: [Status.self, Move.self])

    /// The `--cluster` servers to ask.
    struct Servers: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "The cluster's NATS JetStream servers (comma-separated nats://HOST:PORT).", valueName: "URLS"))
        var cluster: String
        @OptionGroup var credentials: ClusterCredentials

        /// Runs `body` with the connection and the leases' bucket, and closes the connection before returning or
        /// throwing: a process that exits with it open races libnats' threads (and OpenSSL's, over TLS) and was
        /// seen to crash in `free` at exit.
        func withLeases<T>(_ body: (NATSConnection, KeyValueBucket) async throws -> T) async throws -> T {
            let (connection, leases) = try await leases()
            do {
                let value = try await body(connection, leases)
                await connection.close()
                return value
            } catch {
                await connection.close()
                throw error
            }
        }

        /// The leases' bucket; refused with a clear line when no node ever made it.
        private func leases() async throws -> (NATSConnection, KeyValueBucket) {
            let configuration = try credentials.configuration(servers: cluster, name: "muster-cli")
            let connection: NATSConnection
            do {
                connection = try await NATSConnection.connect(configuration)
            } catch let error as NATSError {
                throw ClusterCredentials.failure(error, configuration)
            }
            do {
                return (connection, try await connection.existingKeyValueBucket(NamespaceLease.bucket))
            } catch let error as NATSError where error.code == .notFound {
                await connection.close()
                throw CommandFailure.invalid(
                    "--cluster \(configuration.address): no node has joined this cluster yet (no \(NamespaceLease.bucket) bucket); start one with muster serve --cluster"
                )
            }
        }
    }

    /// One node's part in a namespace, as `status` shows it.
    struct Row: TableRow {
        var namespace: String
        var node: String
        var role: String
        var head: UInt64
        /// Events of the stream the node has not appended yet.
        var lag: UInt64
        var url: String

        static let header = ["NAMESPACE", "NODE", "ROLE", "HEAD", "LAG", "URL"]
        var cells: [String] { [namespace, node, role, String(head), String(lag), url] }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Each node of each namespace: its role, the last position of its log and how far it lags the stream.")

        @OptionGroup var servers: Servers
        @Flag(help: "Print one JSON array.") var json = false

        func run() async throws {
            try await servers.withLeases(show)
        }

        private func show(_ connection: NATSConnection, _ leases: KeyValueBucket) async throws {
            let (holders, reports) = try await NamespaceLease.cluster(leases)
            var rows: [Row] = []
            for report in reports.sorted(by: { ($0.namespace, $0.node) < ($1.namespace, $1.node) }) {
                let stream = NamespaceStream(namespace: report.namespace)
                let last = (try? await connection.streamInfo(stream.name).lastSequence) ?? report.head
                let holder = holders[stream.suffix]
                rows.append(
                    Row(
                        namespace: report.namespace, node: report.node,
                        role: holder?.node == report.node ? "primary" : report.role, head: report.head,
                        lag: last > report.head ? last - report.head : 0, url: report.url))
            }
            try Output.rows(rows, json: json)
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Hand a namespace over to a node: its primary stops taking writes, publishes them all, and the node, \
                once caught up, takes the lease.
                """)

        @OptionGroup var servers: Servers
        @Argument(help: "The namespace.") var namespace: String
        @Argument(help: "The node to move it to (one that serves the namespace, see muster cluster status).")
        var node: String
        @Flag(help: "Print {\"namespace\", \"node\", \"moved\"} as JSON.") var json = false
        @Option(help: ArgumentHelp("How long to wait for the node to take it.", valueName: "SECONDS")) var wait:
            Double = 30

        func run() async throws {
            guard wait > 0, wait <= 3600 else {
                throw ValidationError("--wait \(wait): expected more than 0, at most 3600")
            }
            try await servers.withLeases { _, leases in try await move(leases) }
        }

        private func move(_ leases: KeyValueBucket) async throws {
            let lease = NamespaceLease(leases: leases, stream: NamespaceStream(namespace: namespace))
            let (_, reports) = try await NamespaceLease.cluster(leases)
            guard reports.contains(where: { $0.namespace == namespace && $0.node == node }) else {
                let nodes = reports.filter { $0.namespace == namespace }.map(\.node).sorted()
                throw CommandFailure.invalid(
                    "node \(node) does not serve namespace \(namespace)"
                        + (nodes.isEmpty ? "; no node does" : "; its nodes are \(nodes.joined(separator: ", "))"))
            }
            if try await lease.current()?.holder.node == node {
                try say("namespace \(namespace) is on node \(node) already", moved: false)
                return
            }
            try await lease.requestMove(to: node)
            let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))
            while ContinuousClock.now < deadline {
                let primary = try await NamespaceLease.cluster(leases).reports.contains {
                    $0.namespace == namespace && $0.node == node && $0.role == "primary"
                }
                if primary, let current = try await lease.current(), current.holder.node == node,
                    current.holder.successor == nil
                {
                    try say("namespace \(namespace) moved to node \(node)", moved: true)
                    return
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw CommandFailure.failed(
                "node \(node) did not take namespace \(namespace) within \(wait) s; see muster cluster status")
        }

        private struct Moved: Encodable {
            var namespace: String
            var node: String
            var moved: Bool
        }

        private func say(_ line: String, moved: Bool) throws {
            if json { return try Output.json(Moved(namespace: namespace, node: node, moved: moved)) }
            Output.line(line)
        }
    }
}
