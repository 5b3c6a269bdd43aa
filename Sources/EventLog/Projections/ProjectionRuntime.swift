/// Keeps the registered projections' tables: which generation is active, applying events inline or
/// from a tail, and rebuilding into a fresh generation that is swapped in when it catches up.
///
/// Physical tables are named `p.<projection>.<generation>.<table>`. The meta table keeps, per
/// projection, `proj.<name>.version|generation|checkpoint` and for a rebuild in progress
/// `proj.<name>.rebuild.generation|checkpoint`, all committed together with the tables they describe.
struct ProjectionRuntime: Sendable {
    let projections: [any Projection]
    /// The inline projections with the event types each folds, read once.
    private let inlineProjections: [EventFilteredProjection]
    let meta: Meta
    /// Lifts freshly appended events written with an old schema version, as reads do.
    let upcasters: UpcasterRegistry
    /// The tables of each projection generation read so far.
    private let resolved = ResolvedTables()

    init(projections: [any Projection], meta: Table, upcasters: UpcasterRegistry = UpcasterRegistry([])) {
        self.projections = projections
        inlineProjections = projections.filter { $0.mode == .inline }.map(EventFilteredProjection.init)
        self.meta = Meta(table: meta)
        self.upcasters = upcasters
    }

    var inline: [any Projection] { projections.filter { $0.mode == .inline } }

    func projection(named name: String) throws -> any Projection {
        guard let p = projections.first(where: { $0.name == name }) else {
            let known = projections.map(\.name).joined(separator: ", ")
            throw StoreError(.notFound, "no projection named \(String(reflecting: name)); known: \(known)")
        }
        return p
    }

    private func key(_ p: any Projection, _ field: String) -> String { "proj.\(p.name).\(field)" }

    static func tableName(_ projection: String, _ generation: UInt64, _ table: String) -> String {
        "p.\(projection).\(generation).\(table)"
    }

    // MARK: Reading state

    func activeGeneration(_ p: any Projection, _ txn: Transaction) throws -> UInt64? {
        try meta.integer(key(p, "generation"), in: txn)
    }

    func status(_ p: any Projection, head: UInt64, _ txn: Transaction) throws -> ProjectionStatus {
        let generation = try activeGeneration(p, txn)
        let stored = try meta.integer(key(p, "version"), in: txn).map { UInt32($0) }
        let checkpoint: UInt64
        if generation == nil {
            checkpoint = 0
        } else if p.mode == .inline {
            checkpoint = head
        } else {
            checkpoint = try meta.integer(key(p, "checkpoint"), in: txn) ?? 0
        }
        let rebuilding = try meta.integer(key(p, "rebuild.generation"), in: txn) != nil
        return ProjectionStatus(
            name: p.name, mode: p.mode, version: p.version, storedVersion: stored, generation: generation,
            checkpoint: checkpoint,
            rebuildCheckpoint: rebuilding ? try meta.integer(key(p, "rebuild.checkpoint"), in: txn) ?? 0 : nil,
            isCurrent: generation != nil && stored == p.version && checkpoint == head)
    }

    /// The active tables of `p` for reading or deciding; throws when it was never built.
    func state(_ p: any Projection, _ txn: Transaction, create: Bool = false) throws -> ProjectionState {
        let remembered = txn.isWrite && !create
        if remembered, let known = txn.activeProjectionStates[p.name] { return known }
        guard let generation = try activeGeneration(p, txn) else {
            throw StoreError(
                .projectionNotReady, "projection \(p.name) is not built yet", remedy: .rebuild(projection: p.name))
        }
        let state = try tables(p, generation, txn, isReplaying: false, create: create)
        if remembered { txn.activeProjectionStates[p.name] = state }
        return state
    }

    private func tables(
        _ p: any Projection, _ generation: UInt64, _ txn: Transaction, isReplaying: Bool, create: Bool
    ) throws -> ProjectionState {
        // A read finds the tables of a committed generation: they stay what they are until the generation is
        // dropped. A write may create them, and its transaction may yet be aborted: it resolves them itself.
        let cacheable = !txn.isWrite && !create
        let epoch = txn.environment.droppedTablesEpoch.load(ordering: .sequentiallyConsistent)
        if cacheable, let map = resolved.tables(p.name, generation, epoch: epoch) {
            return ProjectionState(txn: txn, tables: map, isReplaying: isReplaying, projection: p.name)
        }
        var map: [String: Table] = [:]
        for name in p.tables {
            let physical = Self.tableName(p.name, generation, name)
            if let table = try txn.environment.table(
                physical, in: txn, create: create || txn.isWrite, valueSets: p.valueSetTables.contains(name))
            {
                map[name] = table
            } else {
                throw StoreError(
                    .projectionNotReady, "projection \(p.name) has no table \(name) yet",
                    remedy: .rebuild(projection: p.name))
            }
        }
        if cacheable { resolved.remember(map, p.name, generation, epoch: epoch) }
        return ProjectionState(txn: txn, tables: map, isReplaying: isReplaying, projection: p.name)
    }

    // MARK: Writing

    /// On a new log, gives every projection an empty first generation so it is current from the start.
    func initializeEmpty(_ txn: Transaction) throws {
        txn.forgetProjectionStates()
        for p in projections where try activeGeneration(p, txn) == nil {
            _ = try tables(p, 1, txn, isReplaying: false, create: true)
            try meta.setInteger(key(p, "generation"), 1, in: txn)
            try meta.setInteger(key(p, "version"), UInt64(p.version), in: txn)
            try meta.setInteger(key(p, "checkpoint"), 0, in: txn)
        }
    }

    /// Applies freshly appended events to every inline projection that has active tables.
    func applyInline(_ events: [RecordedEvent], _ txn: Transaction) throws {
        let inline = try txn.inlineProjectionStates ?? InlineProjectionStates(inlineStates(txn))
        txn.inlineProjectionStates = inline
        let current = upcasters.isEmpty ? events : events.map(upcasters.upcast)
        if current.count == 1 {  // most appends: nothing to gather
            let event = current[0]
            for i in inline.folding(event.type) { try inline.projections[i].apply(event, to: inline.states[i]) }
            return
        }
        // Projections of every event take the run as it is; the others get the events of the types they fold.
        var handled = [[RecordedEvent]](repeating: [], count: inline.states.count)
        for event in current {
            for i in inline.folding(event.type) where inline.takesEveryType[i] == false { handled[i].append(event) }
        }
        for i in inline.states.indices {
            if inline.takesEveryType[i] {
                try inline.projections[i].apply(current, to: inline.states[i])
            } else if !handled[i].isEmpty {
                try inline.projections[i].apply(handled[i], to: inline.states[i])
            }
        }
    }

    private func inlineStates(_ txn: Transaction) throws -> [(EventFilteredProjection, ProjectionState)] {
        try inlineProjections.compactMap { p in
            guard let generation = try activeGeneration(p.projection, txn) else { return nil }
            return (p, try tables(p.projection, generation, txn, isReplaying: false, create: false))
        }
    }

    /// Applies up to `limit` events after an async projection's checkpoint; returns the new checkpoint.
    func advanceAsync(_ p: any Projection, limit: Int, _ txn: Transaction, log: LogReading) throws -> UInt64 {
        guard let generation = try activeGeneration(p, txn) else { return 0 }
        let state = try tables(p, generation, txn, isReplaying: false, create: false)
        var checkpoint = try meta.integer(key(p, "checkpoint"), in: txn) ?? 0
        var applied = 0
        let filtered = EventFilteredProjection(p)
        var run = EventRun()
        try log.scan(from: checkpoint + 1) { event in
            if run.add(event) { try filtered.applyIfHandled(run.take(), to: state) }
            checkpoint = event.position
            applied += 1
            return applied < limit
        }
        if !run.isEmpty { try filtered.applyIfHandled(run.take(), to: state) }
        if applied > 0 { try meta.setInteger(key(p, "checkpoint"), checkpoint, in: txn) }
        return checkpoint
    }

    /// Whether the projection needs a rebuild: never built, built by another version, or one is under way.
    func needsRebuild(_ p: any Projection, _ txn: Transaction) throws -> Bool {
        if try meta.integer(key(p, "rebuild.generation"), in: txn) != nil { return true }
        guard try activeGeneration(p, txn) != nil else { return true }
        return try meta.integer(key(p, "version"), in: txn) != UInt64(p.version)
    }

    /// Starts a rebuild into a fresh generation (or resumes the one under way). Returns its checkpoint.
    func beginRebuild(_ p: any Projection, _ txn: Transaction) throws -> UInt64 {
        if try meta.integer(key(p, "rebuild.generation"), in: txn) != nil {
            return try meta.integer(key(p, "rebuild.checkpoint"), in: txn) ?? 0
        }
        let active = try activeGeneration(p, txn) ?? 0
        let generation = active + 1
        let fresh = try tables(p, generation, txn, isReplaying: true, create: true)
        for table in fresh.tables.values { try txn.clear(table) }
        try meta.setInteger(key(p, "rebuild.generation"), generation, in: txn)
        try meta.setInteger(key(p, "rebuild.checkpoint"), 0, in: txn)
        return 0
    }

    /// Applies up to `limit` events to the rebuilds under way of `projections`, reading the log once
    /// for all of them, and swaps each in once it reaches `head`. Returns each one's checkpoint
    /// (`head` after its swap). Events `feed` decoded ahead are taken from it while they follow on; the rest are
    /// read here.
    func stepRebuild(
        _ projections: [any Projection], limit: Int, head: UInt64, _ txn: Transaction, log: LogReading,
        feed: RebuildFeed? = nil
    ) throws -> [UInt64] {
        var states: [ProjectionState?] = []
        var checkpoints: [UInt64] = []
        for p in projections {
            if let generation = try meta.integer(key(p, "rebuild.generation"), in: txn) {
                states.append(try tables(p, generation, txn, isReplaying: true, create: false))
                checkpoints.append(try meta.integer(key(p, "rebuild.checkpoint"), in: txn) ?? 0)
            } else {
                states.append(nil)  // not rebuilding (finished already)
                checkpoints.append(head)
            }
        }
        let start = (checkpoints.min() ?? head) + 1
        if start <= head {
            var applied = 0
            var reached = start - 1
            let filtered = projections.map(EventFilteredProjection.init)
            var run = EventRun()
            func fold(_ events: [RecordedEvent]) throws {
                for (i, p) in filtered.enumerated() {
                    guard let state = states[i] else { continue }
                    // A resumed rebuild may be further along than the others: only what it has not folded yet.
                    if let first = events.first, first.position > checkpoints[i] {
                        try p.applyIfHandled(events, to: state)
                    } else {
                        let unfolded = Array(events.drop { $0.position <= checkpoints[i] })
                        if !unfolded.isEmpty { try p.applyIfHandled(unfolded, to: state) }
                    }
                }
            }
            while let feed, applied < limit, reached < head, let decoded = try feed.next() {
                // A step that failed lost the runs it took: the feed no longer follows on, so read here from now.
                guard decoded.first?.position == reached + 1, let last = decoded.last, last.position <= head else {
                    feed.stop()
                    break
                }
                let taken = min(decoded.count, limit - applied)
                if taken < decoded.count { feed.giveBack(Array(decoded[taken...])) }
                try fold(taken < decoded.count ? Array(decoded[..<taken]) : decoded)
                reached = taken < decoded.count ? decoded[taken - 1].position : last.position
                applied += taken
            }
            if applied < limit && reached < head {
                try log.scan(from: reached + 1) { event in
                    if run.add(event) { try fold(run.take()) }
                    reached = event.position
                    applied += 1
                    return applied < limit && reached < head
                }
                if !run.isEmpty { try fold(run.take()) }
            }
            for i in checkpoints.indices where states[i] != nil { checkpoints[i] = max(checkpoints[i], reached) }
        }
        for (i, p) in projections.enumerated() where states[i] != nil {
            if checkpoints[i] < head {
                try meta.setInteger(key(p, "rebuild.checkpoint"), checkpoints[i], in: txn)
            } else {
                try swapIn(p, checkpoint: checkpoints[i], txn)
            }
        }
        return checkpoints
    }

    /// Makes a caught-up rebuild the active generation, atomically with the transaction.
    private func swapIn(_ p: any Projection, checkpoint: UInt64, _ txn: Transaction) throws {
        guard let generation = try meta.integer(key(p, "rebuild.generation"), in: txn) else { return }
        txn.forgetProjectionStates()
        if let old = try activeGeneration(p, txn) { try dropTables(p, old, txn) }
        try meta.setInteger(key(p, "generation"), generation, in: txn)
        try meta.setInteger(key(p, "version"), UInt64(p.version), in: txn)
        try meta.setInteger(key(p, "checkpoint"), checkpoint, in: txn)
        try meta.remove(key(p, "rebuild.generation"), in: txn)
        try meta.remove(key(p, "rebuild.checkpoint"), in: txn)
    }

    /// Abandons a rebuild under way; the active generation keeps serving.
    func cancelRebuild(_ p: any Projection, _ txn: Transaction) throws {
        guard let generation = try meta.integer(key(p, "rebuild.generation"), in: txn) else { return }
        txn.forgetProjectionStates()
        try dropTables(p, generation, txn)
        try meta.remove(key(p, "rebuild.generation"), in: txn)
        try meta.remove(key(p, "rebuild.checkpoint"), in: txn)
    }

    /// Drops every table of the generation — also those an earlier version of the projection had and this one no
    /// longer declares (named by the version that made them, they would otherwise stay in the file for good).
    private func dropTables(_ p: any Projection, _ generation: UInt64, _ txn: Transaction) throws {
        let prefix = Self.tableName(p.name, generation, "")
        for name in try txn.environment.tableNames(startingWith: prefix, in: txn) {
            if let table = try txn.environment.table(name, in: txn, create: false) {
                try txn.environment.dropTable(table, in: txn)
            }
        }
    }
}

/// Events gathered from a scan to be folded together: a few thousand, so a projection can gather its writes
/// without holding a whole rebuild step's events.
struct EventRun {
    static let length = 4096
    private var events: [RecordedEvent] = []

    var isEmpty: Bool { events.isEmpty }

    /// Adds `event`; true once the run is full.
    mutating func add(_ event: RecordedEvent) -> Bool {
        if events.isEmpty { events.reserveCapacity(Self.length) }
        events.append(event)
        return events.count >= Self.length
    }

    /// The events gathered, leaving the run empty.
    mutating func take() -> [RecordedEvent] {
        defer { events = [] }
        return events
    }
}
