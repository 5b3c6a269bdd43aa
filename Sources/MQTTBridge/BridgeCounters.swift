import MusterWire
import Synchronization

/// The counts, shared by the bridge's tasks.
final class BridgeCounters: Sendable {
    private let counts = Mutex(MQTTBridgeCounts())

    func add(_ count: WritableKeyPath<MQTTBridgeCounts, Int> & Sendable) { counts.withLock { $0[keyPath: count] += 1 } }

    var now: MQTTBridgeCounts { counts.withLock { $0 } }
}
