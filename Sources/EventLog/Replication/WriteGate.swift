import Synchronization

/// What a replicated log asks before it appends a new event and before it answers a write that appended some:
/// whether this node may write now (it owns the log and can replicate it), and when the events are replicated.
/// Events appended as another log stored them (`appendStored`, a replica following) pass without asking.
public protocol WriteGate: Sendable {
    /// Throws, on the writer thread, when no new event of `namespace` may be appended now; the append fails and nothing
    /// of it is kept. Must not block.
    func admit(namespace: String) throws
    /// Returns once every event up to `position` is acknowledged as the gate requires (replicated, or at once).
    func acknowledged(through position: UInt64) async throws
}

/// The gate of an open log, set once replication starts; none for a log of one node.
final class WriteGateSlot: Sendable {
    private let gate = Mutex<(any WriteGate)?>(nil)

    var current: (any WriteGate)? { gate.withLock { $0 } }

    func set(_ new: (any WriteGate)?) { gate.withLock { $0 = new } }
}

extension EventLog {
    /// Makes every later write ask `gate` (see `WriteGate`); nil removes it.
    public func guardWrites(with gate: (any WriteGate)?) { core.gate.set(gate) }
}
