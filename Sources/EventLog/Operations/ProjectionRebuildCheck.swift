import Foundation

/// The projection half of `verify`: rebuilds every registered projection from the same read
/// snapshot into a scratch LMDB environment in a temporary directory, then compares its tables
/// byte for byte with the active generation.
///
/// Inline projections are compared at the snapshot's head, async ones at their checkpoint, since
/// an async projection is legitimately behind.
struct ProjectionRebuildCheck {
    let core: LogCore
    let txn: Transaction
    let progress: @Sendable (OperationProgress) -> Void
    /// Differences named per projection; the rest are only counted.
    static let examplesPerProjection = 5
    /// Events applied per scratch transaction.
    static let eventsPerTransaction = 20_000

    func run(_ report: inout VerifyReport) throws {
        let head = try core.reading(txn).head()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("muster-verify-\(UUID().uuidString.prefix(8))", isDirectory: true)
        var limits = Environment.Limits()
        // Room for every projection up front; growth is handled anyway.
        limits.initialMapSize = max(limits.initialMapSize, core.environment.usedSize)
        let scratch = try Environment(directory: directory, limits: limits)
        defer {
            scratch.close()
            try? FileManager.default.removeItem(at: directory)
        }
        for p in core.projections.projections {
            report.projections.append(try check(p, head: head, scratch, &report))
        }
    }

    private func check(
        _ p: any Projection, head: UInt64, _ scratch: Environment, _ report: inout VerifyReport
    ) throws -> VerifyReport.ProjectionCheck {
        let status = try core.projections.status(p, head: head, txn)
        var result = VerifyReport.ProjectionCheck(
            name: p.name, mode: p.mode, comparedUpTo: 0, differences: 0, compared: false)
        guard let generation = status.generation else {
            report.add("projection", "\(p.name) has never been built", remedy: .rebuild(projection: p.name))
            return result
        }
        guard status.storedVersion == p.version else {
            report.add(
                "projection",
                "\(p.name) was built by version \(status.storedVersion.map(String.init) ?? "?"), this release has version \(p.version)",
                remedy: .rebuild(projection: p.name))
            return result
        }
        let upTo = p.mode == .inline ? head : min(status.checkpoint, head)
        do {
            try rebuild(p, upTo: upTo, into: scratch)
        } catch let error as StoreError where error.code == .corrupt {
            report.add("projection", "\(p.name) not compared: the log cannot be replayed (\(error.message))")
            return result
        }
        result.compared = true
        result.comparedUpTo = upTo
        var examples: [String] = []
        for table in p.tables {
            let stored = try txn.environment.table(
                ProjectionRuntime.tableName(p.name, generation, table), in: txn, create: false)
            try scratch.read { fresh in
                let rebuilt = try scratch.table(Self.scratchName(p, table), in: fresh, create: false)
                try TableComparison(
                    stored: stored.map { (txn, $0) }, rebuilt: rebuilt.map { (fresh, $0) },
                    valueSets: p.valueSetTables.contains(table)
                ).run {
                    difference in
                    result.differences += 1
                    if examples.count < Self.examplesPerProjection { examples.append("\(table): \(difference)") }
                }
            }
        }
        if result.differences > 0 {
            let more = result.differences > examples.count ? " … and \(result.differences - examples.count) more" : ""
            report.add(
                "projection",
                "\(p.name) (generation \(generation)) differs from a fresh rebuild up to position \(upTo) in \(result.differences) keys: \(examples.joined(separator: "; "))\(more)",
                remedy: .rebuild(projection: p.name))
        }
        return result
    }

    static func scratchName(_ p: any Projection, _ table: String) -> String { "\(p.name).\(table)" }

    /// Applies events 1…`upTo` of the snapshot to fresh tables in `scratch`, a batch per transaction.
    private func rebuild(_ p: any Projection, upTo: UInt64, into scratch: Environment) throws {
        let log = core.reading(txn)
        let filtered = EventFilteredProjection(p)
        var applied: UInt64 = 0
        repeat {
            let write = try scratch.beginWrite()
            var ended = false
            do {
                var tables: [String: Table] = [:]
                for name in p.tables {
                    tables[name] = try scratch.createTable(
                        Self.scratchName(p, name), in: write, valueSets: p.valueSetTables.contains(name))
                }
                let state = ProjectionState(txn: write, tables: tables, isReplaying: true, projection: p.name)
                var reached = applied
                if applied < upTo {
                    try log.scan(from: applied + 1) { event in
                        try filtered.applyIfHandled(event, to: state)
                        reached = event.position
                        return reached < upTo && reached - applied < UInt64(Self.eventsPerTransaction)
                    }
                }
                ended = true
                try scratch.commit(write)
                if reached == applied { break }  // the snapshot ends before `upTo`
                applied = reached
                progress(OperationProgress(phase: "projection \(p.name)", done: applied, total: upTo, unit: "events"))
            } catch let error as StoreError where error.isMapFull {
                if !ended { scratch.abort(write) }
                try scratch.growMap()  // and run this batch again
            } catch {
                if !ended { scratch.abort(write) }
                throw error
            }
        } while applied < upTo
    }
}
