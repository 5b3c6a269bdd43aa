import ArgumentParser
import EventLog
import Foundation
import Muster
import NATS
import Replication

/// `muster serve --cluster nats://…`: this node's part in a cluster (Docs/cluster.md). The node serves the namespace
/// of `--namespace`, its data directory holding that namespace's log — or, with `--namespaces`, each namespace named
/// there in a data directory of its own, `DATA/namespaces/NAME/`; each log is replicated to its namespace's stream.
struct ServeClusterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Join the cluster of these NATS JetStream servers (comma-separated nats://HOST:PORT).", valueName: "URLS"))
    var cluster: String?
    @Option(help: "This node's name in the cluster: ASCII letters, digits, - and _ (default: the host name).")
    var node: String?
    @Option(
        help: ArgumentHelp(
            "The URL other nodes forward writes to this node at (default: http://HOST:PORT of --host and --port).",
            valueName: "URL"))
    var advertise: String?
    @Option(
        help: ArgumentHelp(
            "When a write is answered: local (durable on this node) or replicated (on a majority of the stream's servers).",
            valueName: "local|replicated"))
    var acknowledge = "local"
    @Option(help: ArgumentHelp("How long a node's lease on its namespace lives without renewal.", valueName: "SECONDS"))
    var leaseSeconds: Double = 6
    @Option(help: ArgumentHelp("Copies of the namespace's stream (1 to 5).", valueName: "N")) var clusterReplicas = 3
    @Option(
        help: ArgumentHelp(
            "With --acknowledge replicated: how long a write waits for replication before it is answered 503.",
            valueName: "SECONDS"))
    var replicationTimeout: Double = 5
    @Option(
        help: ArgumentHelp(
            "The namespaces this node serves (comma-separated), each in a data directory of its own, "
                + "DATA/namespaces/NAME/; each request goes to its caller's. Default: the one of --namespace, in DATA.",
            valueName: "NAMES"))
    var namespaces: String?
    @OptionGroup var credentials: ClusterCredentials

    /// The namespaces of `--namespaces`, in the order given; nil without it.
    func servedNamespaces() throws -> [String]? {
        guard let namespaces else { return nil }
        let names = namespaces.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for name in names {
            do {
                try Names.validate(name, as: "namespace")
            } catch let error as StoreError {
                throw ValidationError("--namespaces \(namespaces): \(error.message)")
            }
        }
        guard Set(names).count == names.count else {
            throw ValidationError("--namespaces \(namespaces): a namespace is named twice")
        }
        return names
    }

    /// The node's settings; nil without `--cluster`.
    func options(host: String, port: Int) throws -> (NATSConfiguration, ReplicatedNamespace.Options)? {
        guard let cluster else {
            guard node == nil, advertise == nil, acknowledge == "local", leaseSeconds == 6, clusterReplicas == 3,
                replicationTimeout == 5, namespaces == nil, !credentials.isGiven
            else {
                throw ValidationError(
                    "--node, --advertise, --acknowledge, --lease-seconds, --cluster-replicas, --replication-timeout, "
                        + "--namespaces, --cluster-user, --cluster-password-file, --cluster-ca-file, "
                        + "--cluster-cert-file and --cluster-key-file need --cluster URLS")
            }
            return nil
        }
        let acknowledgement: Acknowledgement
        switch acknowledge {
        case "local": acknowledgement = .local
        case "replicated": acknowledgement = .replicated(timeout: .milliseconds(Int64(replicationTimeout * 1000)))
        default: throw ValidationError("--acknowledge \(acknowledge): expected local or replicated")
        }
        guard leaseSeconds >= 1, leaseSeconds <= 600 else {
            throw ValidationError("--lease-seconds \(leaseSeconds): expected 1 to 600")
        }
        guard (1...5).contains(clusterReplicas) else {
            throw ValidationError("--cluster-replicas \(clusterReplicas): expected 1 to 5")
        }
        guard replicationTimeout > 0, replicationTimeout <= 600 else {
            throw ValidationError("--replication-timeout \(replicationTimeout): expected more than 0, at most 600")
        }
        let name = node ?? String(ProcessInfo.processInfo.hostName.split(separator: ".").first ?? "node")
        guard !name.isEmpty, name.utf8.count <= 64,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else {
            throw ValidationError("--node \(name): expected 1 to 64 ASCII letters, digits, - and _")
        }
        let url = advertise ?? "http://\(host):\(port)"
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme), parsed.host != nil else {
            throw ValidationError("--advertise \(url): expected an http(s) URL other nodes reach this one at")
        }
        let connection = try credentials.configuration(servers: cluster, name: "muster-\(name)")
        let options = ReplicatedNamespace.Options(
            holder: .init(node: name, url: url), leaseTime: .milliseconds(Int64(leaseSeconds * 1000)),
            acknowledgement: acknowledgement, replicas: clusterReplicas, blobs: MusterDomain.blobReferences,
            secrets: MusterDomain.secretReferences)
        return (connection, options)
    }
}
