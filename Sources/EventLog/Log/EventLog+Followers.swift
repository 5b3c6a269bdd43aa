/// Positions of the log's outside followers: readers that act outside the log on what it records (publishing to a
/// broker, calling a hook) and must go on after a restart where they stopped. Each is saved under a name in the
/// `meta` table, so it is in every backup and survives rebuilds.
extension EventLog {
    /// The position follower `name` last saved as done, or nil when it never saved one.
    public func followerPosition(_ name: String) throws -> UInt64? {
        let meta = Meta(table: core.tables.meta)
        return try core.environment.read { try meta.integer(Self.followerKey(name), in: $0) }
    }

    static func followerKey(_ name: String) -> String { "follower.\(name)" }
}

extension WriteScope {
    /// Saves `position` as done by follower `name`, in this write's commit.
    public func saveFollowerPosition(_ name: String, _ position: UInt64) throws {
        try Meta(table: core.tables.meta).setInteger(EventLog.followerKey(name), position, in: txn)
    }
}
