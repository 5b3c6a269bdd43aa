import EventLogTesting
import Foundation

/// Servers outliving the run that started them: see `PeerDirectory`.
extension NATSCluster {
    static let directoryPrefix = "nats-cluster-"

    /// Kills the servers, and removes the directories, of runs that no longer exist.
    static func stopOrphans() { PeerDirectory.stopOrphans(prefix: directoryPrefix, executable: executable) }
}
