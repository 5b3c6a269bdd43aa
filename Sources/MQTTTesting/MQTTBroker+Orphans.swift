import EventLogTesting
import Foundation

/// Brokers outliving the run that started them: see `PeerDirectory`.
extension MQTTBroker {
    static let directoryPrefix = "mosquitto-"
    static let executable = "/usr/sbin/mosquitto"

    /// Stops the brokers, and removes the directories, of runs that no longer exist.
    static func stopOrphans() { PeerDirectory.stopOrphans(prefix: directoryPrefix, executable: executable) }
}
