import Foundation

/// Decodes the log ahead of a rebuild, on a thread of its own: runs of events read from snapshots, handed to the
/// writer, which then only folds them. Decoding and checking every event is about half of a rebuild's work; this
/// way it runs on the other core.
///
/// The feed covers the positions from `start` through `end` (the head when the rebuild began); what is appended
/// later, the writer reads itself. A few runs wait at most, so memory stays bounded whatever the log's size.
final class RebuildFeed: @unchecked Sendable {
    /// Runs decoded ahead of the writer at most.
    static let depth = 4

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [[RecordedEvent]] = []
    private var isFinished = false
    private var isStopped = false
    private var failure: (any Error)?

    init(_ core: LogCore, from start: UInt64, through end: UInt64) {
        Thread.detachNewThread { [self] in produce(core, from: start, through: end) }
    }

    /// The next run, in log order, waiting for it; nil once the feed reached its end or was stopped.
    ///
    /// The writer waits here inside its transaction, holding the store's resize lock shared. A feed that needs that
    /// lock while another thread waits for it exclusively (a map another process grew) would then wait for the writer
    /// for good; so after `patience` seconds without a run the feed is stopped and the writer reads on itself.
    func next(patience: TimeInterval = 2) throws -> [RecordedEvent]? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: patience)
        while ready.isEmpty && !isFinished && !isStopped {
            if !condition.wait(until: deadline) && ready.isEmpty {
                isStopped = true
                condition.broadcast()
                break
            }
        }
        if !isStopped, !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Gives back the part of a run the writer did not fold in this step: the next `next` returns it first.
    func giveBack(_ rest: [RecordedEvent]) {
        condition.lock()
        if !isStopped { ready.insert(rest, at: 0) }
        condition.unlock()
    }

    /// Ends the feed early: `next` returns nil from now on and the thread stops after its current run.
    func stop() {
        condition.lock()
        isStopped = true
        ready = []
        condition.broadcast()
        condition.unlock()
    }

    private func produce(_ core: LogCore, from start: UInt64, through end: UInt64) {
        var next = start
        do {
            while next <= end {
                var run: [RecordedEvent] = []
                // A snapshot per run: a rebuild's long scan does not hold back the pages later commits free.
                try core.environment.read { txn in
                    run = []
                    run.reserveCapacity(EventRun.length)
                    try core.reading(txn).scan(from: next) { event in
                        guard event.position <= end else { return false }
                        run.append(event)
                        return run.count < EventRun.length
                    }
                }
                guard let last = run.last, hand(run) else { break }
                next = last.position + 1
            }
        } catch {
            condition.lock()
            failure = error
            condition.unlock()
        }
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for room and adds `run`; false when the feed was stopped.
    private func hand(_ run: [RecordedEvent]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.depth && !isStopped { condition.wait() }
        guard !isStopped else { return false }
        ready.append(run)
        condition.broadcast()
        return true
    }
}
