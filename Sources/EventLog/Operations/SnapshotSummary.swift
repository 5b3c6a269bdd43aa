import Foundation
import Synchronization

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
    ///
    /// `environment` must not change meanwhile (a backup's copy, a backup being restored): the check reads it in two
    /// snapshots at once, each half of the chain on a thread of its own.
    static func read(
        _ environment: Environment, projections: [any Projection], checkEvents: Bool,
        progress: @Sendable (OperationProgress) -> Void = { _ in }
    ) throws -> SnapshotSummary {
        var summary = try environment.read { txn in
            let tables = try logTables(environment, txn)
            let meta = Meta(table: tables.meta)
            let head = try LogReading(tables: tables, txn: txn).head()
            let runtime = ProjectionRuntime(projections: projections, meta: tables.meta)
            let states = try projections.map { p in
                let status = try runtime.status(p, head: head, txn)
                return BackupManifest.Projection(
                    name: p.name, mode: p.mode, version: status.storedVersion, generation: status.generation,
                    checkpoint: status.checkpoint)
            }
            return SnapshotSummary(
                storeFormat: try meta.integer(Meta.formatVersion, in: txn) ?? 1, head: head,
                eventCount: UInt64(try txn.count(tables.events)),
                headHash: try tables.commits.flatMap { try CommitChain.head($0, in: txn)?.hashHex },
                projections: states, blobs: try BlobTables.totals(meta: meta, in: txn))
        }
        if checkEvents {
            summary.headHash = try checkEventsAndChain(
                environment, head: summary.head, count: summary.eventCount, progress: progress)
        }
        return summary
    }

    /// The log's tables in `txn`, opened through it (never `existingTable`, which would open a read of its own).
    private static func logTables(_ environment: Environment, _ txn: Transaction) throws -> LogTables {
        func open(_ name: String) throws -> Table {
            guard let table = try environment.table(name, in: txn, create: false) else {
                throw StoreError(
                    .corrupt, "\(environment.directory.path) has no \(name) table; it is not a Muster data directory")
            }
            return table
        }
        return LogTables(
            events: try open(LogTables.names.events), streamHeads: try open(LogTables.names.streamHeads),
            eventIds: try open(LogTables.names.eventIds), meta: try open(LogTables.names.meta),
            commits: try environment.table(LogTables.names.commits, in: txn, create: false))
    }

    /// Checks every event (its checksum, positions without gaps) and the commit chain in one walk along the chain,
    /// its two halves at once; returns the hash of the chain's last link (nil for a log without a chain, whose
    /// events alone are checked).
    private static func checkEventsAndChain(
        _ environment: Environment, head: UInt64, count: UInt64, progress: @Sendable (OperationProgress) -> Void
    ) throws -> String? {
        let (hasChain, middle) = try environment.read { txn -> (Bool, CommitChain.Link?) in
            guard let commits = try environment.table(LogTables.names.commits, in: txn, create: false) else {
                try checkAllEvents(try logTables(environment, txn), count: count, txn, progress)
                return (false, nil)
            }
            return (true, try link(covering: head / 2, before: head, commits, txn))
        }
        guard hasChain else { return nil }
        progress(OperationProgress(phase: "events", done: 0, total: head, unit: "events"))
        // The first half up to the link covering the middle position, the second from the link after it.
        let halves: [(after: CommitChain.Link?, through: UInt64?)] =
            middle.map { [(nil, $0.last), ($0, nil)] } ?? [(nil, nil)]
        let walked = Mutex<[UInt64]>(Array(repeating: 0, count: halves.count))
        let outcomes = Mutex<[Int: Result<ChainIntegrityCheck.Outcome, any Error>]>([:])
        withoutActuallyEscaping(progress) { progress in
            DispatchQueue.concurrentPerform(iterations: halves.count) { half in
                let outcome = Result {
                    try environment.read { txn in
                        var check = ChainIntegrityCheck(tables: try logTables(environment, txn), txn: txn)
                        let base = halves[half].after?.last ?? 0
                        check.progress = { step in
                            // Reported under the lock, so the two halves' sums arrive in order.
                            walked.withLock { walked in
                                walked[half] = step.done - base
                                let done = walked.reduce(0, +)
                                progress(OperationProgress(phase: "events", done: done, total: head, unit: "events"))
                            }
                        }
                        check.eachEvent = { position, envelope in
                            guard envelope.count >= 4 else {
                                throw StoreError(
                                    .corrupt, "event at position \(position) is truncated (\(envelope.count) bytes)")
                            }
                            try EnvelopeCodec.verifyChecksum(position: position, envelope)
                        }
                        return try check.run(after: halves[half].after, through: halves[half].through)
                    }
                }
                outcomes.withLock { $0[half] = outcome }
            }
        }
        let walks = try outcomes.withLock { outcomes in try halves.indices.map { try outcomes[$0]!.get() } }
        if let problem = walks.flatMap(\.problems).first {
            throw StoreError(.corrupt, "its commit chain is broken: \(problem)")
        }
        // The walks found positions 1…head each once; anything more in the table is not an event of the log.
        guard count == head else {
            throw StoreError(.corrupt, "the events table holds \(count) entries for the positions 1…\(head)")
        }
        progress(OperationProgress(phase: "events", done: head, total: head, unit: "events"))
        return walks.last?.head?.hashHex
    }

    /// The link of the commit holding `position`, when one ends before `limit`; nil when none does (or the chain's
    /// row there is damaged: the walk from the start finds it).
    private static func link(
        covering position: UInt64, before limit: UInt64, _ commits: Table, _ txn: Transaction
    ) throws -> CommitChain.Link? {
        var link: CommitChain.Link?
        try Key.position(Swift.max(position, 1)).withUnsafeBytes { key in
            try txn.scan(commits, from: key) { key, value in
                link = CommitChain.decode(key: key, value: value)
                return false
            }
        }
        guard let link, link.last < limit else { return nil }
        return link
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
