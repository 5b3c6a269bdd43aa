/// How far a log's events are known to be replicated, kept in the log's `meta` so that a node knows it without asking
/// the replicas (for `muster cluster status`, and to say what a restart has to publish).
extension LogReader {
    /// The last position known to be replicated; 0 when none is.
    public var replicatedThrough: UInt64 {
        get throws { try Meta(table: core.tables.meta).integer(ReplicationCheckpoint.key, in: txn) ?? 0 }
    }
}

extension WriteScope {
    /// Records that every event up to `position` is replicated.
    public func recordReplicated(through position: UInt64) throws {
        try Meta(table: core.tables.meta).setInteger(ReplicationCheckpoint.key, position, in: txn)
    }
}

enum ReplicationCheckpoint {
    static let key = "replication.published"
}
