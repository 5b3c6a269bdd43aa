/// The tables of the log itself, as opposed to projection tables.
///
/// - `events`:   position (u64 BE) → envelope
/// - `streamHeads`: namespace 0 stream 0 → last version (u64 LE) · last position (u64 LE); earlier
///   events of a stream are reached through each envelope's previous-in-stream position, so an
///   append touches one small row per stream rather than a leaf of a per-event index
/// - `eventIds`: event id (16 bytes) → position (u64 BE), for idempotent appends
/// - `meta`:     UTF-8 key → value: format version, projection versions and checkpoints
/// - `commits`:  the hash chain over commits (see `CommitChain`); missing in a format-1 directory until
///   `muster migrate` builds it, and then appends go unlinked
struct LogTables: Sendable {
    let events: Table
    let streamHeads: Table
    let eventIds: Table
    let meta: Table
    var commits: Table?

    static let names = (
        events: "events", streamHeads: "streamHeads", eventIds: "eventIds", meta: "meta", commits: "commits"
    )

    /// The `commits` table as `txn` sees it: opened at start, or made since by a migration.
    func commits(in txn: Transaction) throws -> Table? {
        if let commits { return commits }
        return try txn.environment.table(Self.names.commits, in: txn, create: false)
    }

    /// Creates the tables when missing (needs a write transaction).
    static func create(in transaction: Transaction) throws -> LogTables {
        let env = transaction.environment
        return LogTables(
            events: try env.createTable(names.events, in: transaction),
            streamHeads: try env.createTable(names.streamHeads, in: transaction),
            eventIds: try env.createTable(names.eventIds, in: transaction),
            meta: try env.createTable(names.meta, in: transaction),
            commits: try env.createTable(names.commits, in: transaction))
    }

    /// Opens the existing tables, or nil when the data directory was never written.
    static func existing(in environment: Environment) throws -> LogTables? {
        guard let events = try environment.existingTable(names.events),
            let streamHeads = try environment.existingTable(names.streamHeads),
            let eventIds = try environment.existingTable(names.eventIds),
            let meta = try environment.existingTable(names.meta)
        else { return nil }
        return LogTables(
            events: events, streamHeads: streamHeads, eventIds: eventIds, meta: meta,
            commits: try environment.existingTable(names.commits))
    }
}
