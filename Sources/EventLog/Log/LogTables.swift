/// The tables of the log itself, as opposed to projection tables.
///
/// - `events`:   position (u64 BE) → envelope
/// - `streams`:  namespace 0 stream 0 version (u64 BE) → position (u64 BE)
/// - `eventIds`: event id (16 bytes) → position (u64 BE), for idempotent appends
/// - `meta`:     UTF-8 key → value: format version, projection versions and checkpoints
struct LogTables: Sendable {
    let events: Table
    let streams: Table
    let eventIds: Table
    let meta: Table

    static let names = (events: "events", streams: "streams", eventIds: "eventIds", meta: "meta")

    /// Creates the tables when missing (needs a write transaction).
    static func create(in transaction: Transaction) throws -> LogTables {
        let env = transaction.environment
        return LogTables(
            events: try env.createTable(names.events, in: transaction),
            streams: try env.createTable(names.streams, in: transaction),
            eventIds: try env.createTable(names.eventIds, in: transaction),
            meta: try env.createTable(names.meta, in: transaction))
    }

    /// Opens the existing tables, or nil when the data directory was never written.
    static func existing(in environment: Environment) throws -> LogTables? {
        guard let events = try environment.existingTable(names.events),
            let streams = try environment.existingTable(names.streams),
            let eventIds = try environment.existingTable(names.eventIds),
            let meta = try environment.existingTable(names.meta)
        else { return nil }
        return LogTables(events: events, streams: streams, eventIds: eventIds, meta: meta)
    }
}
