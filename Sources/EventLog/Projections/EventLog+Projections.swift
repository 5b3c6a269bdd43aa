/// Progress of a rebuild, reported after every step.
public struct RebuildProgress: Sendable, Hashable {
    public var projection: String
    /// Last position applied to the fresh tables.
    public var checkpoint: UInt64
    /// Log head the rebuild is catching up to.
    public var head: UInt64
    /// True once the fresh tables were swapped in.
    public var isFinished: Bool
}

extension EventLog {
    /// Names of the projections whose stored state is missing, from another version, or mid-rebuild.
    public func projectionsNeedingRebuild() throws -> [String] {
        try core.environment.read { txn in
            try core.projections.projections.filter { try core.projections.needsRebuild($0, txn) }.map(\.name)
        }
    }

    /// Rebuilds projections (all when `names` is empty) into fresh tables and swaps each in
    /// atomically once it has caught up with the log. The log is read once for all of them, in steps
    /// of `eventsPerStep` events per transaction. Resumes a rebuild a crash interrupted. Side effects
    /// are muted (`ProjectionState.isReplaying`). Cancelling the task leaves the rebuild resumable;
    /// `cancelRebuild` abandons it. `progress` is called for every projection after every step.
    public func rebuild(
        _ names: [String] = [], eventsPerStep: Int = 50_000,
        progress: @Sendable (RebuildProgress) -> Void = { _ in }
    ) async throws {
        let core = self.core
        let selected =
            try names.isEmpty ? core.projections.projections : names.map { try core.projections.projection(named: $0) }
        guard !selected.isEmpty else { return }
        let (start, end) = try await perform { scope in
            let checkpoints = try selected.map { try core.projections.beginRebuild($0, scope.txn) }
            return ((checkpoints.min() ?? 0) + 1, scope.head)
        }
        // The log up to now is decoded on another thread while the writer folds.
        let feed = start <= end ? RebuildFeed(core, from: start, through: end) : nil
        defer { feed?.stop() }
        var eventsPerStep = eventsPerStep
        while true {
            try Task.checkCancellation()
            let limit = eventsPerStep
            let steps: [RebuildProgress]
            do {
                steps = try await perform { scope -> [RebuildProgress] in
                    let head = scope.head
                    let checkpoints = try core.projections.stepRebuild(
                        selected, limit: limit, head: head, scope.txn, log: core.reading(scope.txn), feed: feed)
                    return zip(selected, checkpoints).map { p, checkpoint in
                        RebuildProgress(
                            projection: p.name, checkpoint: checkpoint, head: head, isFinished: checkpoint >= head)
                    }
                }
            } catch let error as StoreError where error.isTransactionFull && limit > 1 {
                eventsPerStep = max(1, limit / 4)  // heavy projections: smaller steps
                continue
            }
            for step in steps { progress(step) }
            if steps.allSatisfy(\.isFinished) { return }
        }
    }

    /// Abandons a rebuild under way; the tables in use stay as they are.
    public func cancelRebuild(_ name: String) async throws {
        let p = try core.projections.projection(named: name)
        let core = self.core
        try await perform { scope in try core.projections.cancelRebuild(p, scope.txn) }
    }

    /// Applies every event committed so far to the async projections; returns the head they reached.
    @discardableResult
    public func catchUpAsyncProjections(eventsPerStep: Int = 20_000) async throws -> UInt64 {
        let core = self.core
        var reached: UInt64 = 0
        for p in core.projections.projections where p.mode == .async {
            while true {
                let (checkpoint, head) = try await perform { scope -> (UInt64, UInt64) in
                    let checkpoint = try core.projections.advanceAsync(
                        p, limit: eventsPerStep, scope.txn, log: core.reading(scope.txn))
                    return (checkpoint, scope.head)
                }
                reached = head
                if checkpoint >= head { break }
            }
        }
        return reached
    }

    /// Keeps the async projections caught up until the task is cancelled.
    public func runAsyncProjections(pollInterval: Duration = .milliseconds(100)) async throws {
        while !Task.isCancelled {
            let reached = try await catchUpAsyncProjections()
            await signal.wait(beyond: reached, timeout: pollInterval)
        }
    }
}
