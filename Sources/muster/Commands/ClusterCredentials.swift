import ArgumentParser
import Foundation
import NATS

/// Who this program is at the cluster's NATS servers (`serve --cluster`, `muster cluster`): a user name, with the
/// password from `--cluster-password-file` or `MUSTER_CLUSTER_PASSWORD`, never from the command line; and TLS to
/// them, with the authority their certificates are checked against and a client certificate when they ask for one.
struct ClusterCredentials: ParsableArguments {
    @Option(help: "The user name at the cluster's NATS servers, when they ask for one.") var clusterUser: String?
    @Option(
        help: """
            A file (owner-only) whose first line is the password of --cluster-user; else MUSTER_CLUSTER_PASSWORD.
            """)
    var clusterPasswordFile: String?
    @Option(help: "PEM file of the certificate authorities that sign the NATS servers' certificates: connect with TLS.")
    var clusterCaFile: String?
    @Option(
        help: "PEM file of this node's client certificate, for NATS servers that ask for one (with --cluster-key-file)."
    )
    var clusterCertFile: String?
    @Option(help: "PEM file (owner-only, not encrypted) of the private key of --cluster-cert-file.")
    var clusterKeyFile: String?

    /// Whether any credential option was given.
    var isGiven: Bool {
        clusterUser != nil || clusterPasswordFile != nil || clusterCaFile != nil || clusterCertFile != nil
            || clusterKeyFile != nil
    }

    /// How to reach `servers` as `name`, with these credentials.
    func configuration(servers: String, name: String) throws -> NATSConfiguration {
        let password = try SecretFile.password(
            file: clusterPasswordFile, option: "--cluster-password-file", variable: "MUSTER_CLUSTER_PASSWORD")
        if password != nil, clusterUser == nil {
            throw ValidationError(
                "a cluster password was given (--cluster-password-file or MUSTER_CLUSTER_PASSWORD) without --cluster-user"
            )
        }
        return NATSConfiguration(
            servers: servers, name: name, userName: clusterUser, password: password, tls: try tls())
    }

    /// The CA file, and the client certificate and key when given: both or neither, the key owner-only.
    private func tls() throws -> NATSTLS? {
        try TLSFiles.checked(
            caFile: clusterCaFile, certificateFile: clusterCertFile, keyFile: clusterKeyFile, prefix: "--cluster",
            needs: "--cluster-ca-file"
        ).map { NATSTLS(caFile: $0.caFile, certificateFile: $0.certificateFile, keyFile: $0.keyFile) }
    }

    /// What a failed connection says, with what to do when the servers refused the credentials.
    static func failure(_ error: NATSError, _ configuration: NATSConfiguration) -> CommandFailure {
        var message = "--cluster \(configuration.address): \(error.message)"
        if error.code == .refused {
            message +=
                configuration.userName == nil && !configuration.servers.contains(where: { $0.contains("@") })
                ? "; the servers ask for a user: give --cluster-user and the password in --cluster-password-file or MUSTER_CLUSTER_PASSWORD"
                : "; check --cluster-user and the password (--cluster-password-file or MUSTER_CLUSTER_PASSWORD)"
        } else if ["SSL", "TLS", "secure", "certificate"].contains(where: { error.message.contains($0) })
            // Servers that want a client certificate and get none close the connection after the handshake.
            || (configuration.tls != nil && error.message.contains("Protocol Error"))
        {
            message +=
                configuration.tls == nil
                ? "; the servers speak TLS: give --cluster-ca-file with the authority of their certificates"
                : "; check --cluster-ca-file (the authority of the servers' certificates) and, when they ask for one, "
                    + "--cluster-cert-file and --cluster-key-file"
        }
        return CommandFailure.invalid(message)
    }
}
