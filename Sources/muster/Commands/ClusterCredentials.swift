import ArgumentParser
import Foundation
import NATS

/// Who this program is at the cluster's NATS servers (`serve --cluster`, `muster cluster`): a user name, with the
/// password from `--cluster-password-file` or `MUSTER_CLUSTER_PASSWORD`, never from the command line.
struct ClusterCredentials: ParsableArguments {
    @Option(help: "The user name at the cluster's NATS servers, when they ask for one.") var clusterUser: String?
    @Option(
        help: """
            A file (owner-only) whose first line is the password of --cluster-user; else MUSTER_CLUSTER_PASSWORD.
            """)
    var clusterPasswordFile: String?

    /// Whether any credential option was given.
    var isGiven: Bool { clusterUser != nil || clusterPasswordFile != nil }

    /// How to reach `servers` as `name`, with these credentials.
    func configuration(servers: String, name: String) throws -> NATSConfiguration {
        let password = try SecretFile.password(
            file: clusterPasswordFile, option: "--cluster-password-file", variable: "MUSTER_CLUSTER_PASSWORD")
        if password != nil, clusterUser == nil {
            throw ValidationError(
                "a cluster password was given (--cluster-password-file or MUSTER_CLUSTER_PASSWORD) without --cluster-user"
            )
        }
        return NATSConfiguration(servers: servers, name: name, userName: clusterUser, password: password)
    }

    /// What a failed connection says, with what to do when the servers refused the credentials.
    static func failure(_ error: NATSError, _ configuration: NATSConfiguration) -> CommandFailure {
        var message = "--cluster \(configuration.address): \(error.message)"
        if error.code == .refused {
            message +=
                configuration.userName == nil && !configuration.servers.contains(where: { $0.contains("@") })
                ? "; the servers ask for a user: give --cluster-user and the password in --cluster-password-file or MUSTER_CLUSTER_PASSWORD"
                : "; check --cluster-user and the password (--cluster-password-file or MUSTER_CLUSTER_PASSWORD)"
        }
        return CommandFailure.invalid(message)
    }
}
