import Foundation

/// What one read snapshot of an environment holds: the numbers a backup manifest records and a
/// restore checks.
struct SnapshotSummary {
    var storeFormat: UInt64
    var head: UInt64
    var eventCount: UInt64
    /// The hash of the commit chain's last link; nil when the log has no chain (format 1) or no events.
    var headHash: String?
    var projections: [BackupManifest.Projection]
    var blobs: BlobTotals

    /// Reads the summary of `environment`. With `checkEvents`, also checks that every event passes
    /// its checksum, that positions run 1…head without gaps and that the commit chain recomputes from them.
    static func read(
        _ environment: Environment, projections: [any Projection], checkEvents: Bool,
        progress: @Sendable (OperationProgress) -> Void = { _ in }
    ) throws -> SnapshotSummary {
        try environment.read { txn in
            // Tables are opened through `txn`, never `existingTable`, which would nest a second read.
            func open(_ name: String) throws -> Table {
                guard let table = try environment.table(name, in: txn, create: false) else {
                    throw StoreError(
                        .corrupt,
                        "\(environment.directory.path) has no \(name) table; it is not a Muster data directory")
                }
                return table
            }
            let tables = LogTables(
                events: try open(LogTables.names.events), streamHeads: try open(LogTables.names.streamHeads),
                eventIds: try open(LogTables.names.eventIds), meta: try open(LogTables.names.meta),
                commits: try environment.table(LogTables.names.commits, in: txn, create: false))
            let meta = Meta(table: tables.meta)
            let head = try LogReading(tables: tables, txn: txn).head()
            let count = UInt64(try txn.count(tables.events))
            if checkEvents { try checkAllEvents(tables, count: count, txn, progress) }
            let headHash: String?
            if checkEvents {
                let chain = try ChainIntegrityCheck(tables: tables, txn: txn).run()
                if let problem = chain.problems.first, !chain.chainMissing {
                    throw StoreError(.corrupt, "its commit chain is broken: \(problem)")
                }
                headHash = chain.head?.hashHex
            } else {
                headHash = try tables.commits.flatMap { try CommitChain.head($0, in: txn)?.hashHex }
            }
            let runtime = ProjectionRuntime(projections: projections, meta: tables.meta)
            let states = try projections.map { p in
                let status = try runtime.status(p, head: head, txn)
                return BackupManifest.Projection(
                    name: p.name, mode: p.mode, version: status.storedVersion, generation: status.generation,
                    checkpoint: status.checkpoint)
            }
            return SnapshotSummary(
                storeFormat: try meta.integer(Meta.formatVersion, in: txn) ?? 1, head: head, eventCount: count,
                headHash: headHash, projections: states, blobs: try BlobTables.totals(meta: meta, in: txn))
        }
    }

    private static func checkAllEvents(
        _ tables: LogTables, count: UInt64, _ txn: Transaction, _ progress: @Sendable (OperationProgress) -> Void
    ) throws {
        var expected: UInt64 = 1
        try txn.scan(tables.events) { key, value in
            guard key.count == 8 else {
                throw StoreError(
                    .corrupt, "the events table has a key of \(key.count) bytes after position \(expected - 1)")
            }
            let position = Key.readPosition(key)
            guard position == expected else {
                throw StoreError(.corrupt, "positions jump from \(expected - 1) to \(position); events are missing")
            }
            guard value.count >= 4 else {
                throw StoreError(.corrupt, "event at position \(position) is truncated (\(value.count) bytes)")
            }
            try EnvelopeCodec.verifyChecksum(position: position, value)
            if position % 50_000 == 0 {
                progress(OperationProgress(phase: "events", done: position, total: count, unit: "events"))
            }
            expected += 1
            return true
        }
        progress(OperationProgress(phase: "events", done: expected - 1, total: count, unit: "events"))
    }
}
