import Foundation

/// The single writer of a process: one OS thread that drains queued jobs into one LMDB write
/// transaction (group commit) and resumes each caller only after that transaction is durable.
///
/// A job that throws (a conflict, a rejected command) leaves no trace while the others in the batch
/// commit (see `commit(_:excluding:)`). When the map is full the whole batch is aborted, the
/// map grown and the batch run again; jobs are therefore pure functions of the store's state.
///
/// Its life is `State`: it runs until `close()`, which stops new jobs, lets the thread drain every queued one
/// and then waits for the thread to end. Nothing waits in `deinit`: `close(waiting: false)` only asks.
final class Writer: @unchecked Sendable {
    /// Where the writer is in its life.
    private enum State {
        /// Created; the thread has not started.
        case ready
        /// Taking and committing jobs.
        case running
        /// Closing: the queued jobs still commit, new ones fail with `.closed`.
        case draining
        /// The thread has ended; every job failed or was acknowledged.
        case closed
    }

    // `queue` and `state` are guarded by `condition`; everything else is touched by the thread only.
    private let condition = NSCondition()
    private var queue: [any WriterJob] = []
    private var state = State.ready
    /// Entered while the thread runs, so any number of `close()` calls can wait for its end.
    private let thread = DispatchGroup()

    private let core: LogCore
    private let maximumBatch: Int
    private let onCommit: @Sendable (UInt64, EventLog.Commit) -> Void
    private var lastRecordedAt: Int64 = 0
    private var lastCommitDuration: TimeInterval = 0

    init(core: LogCore, maximumBatch: Int = 4096, onCommit: @escaping @Sendable (UInt64, EventLog.Commit) -> Void) {
        self.core = core
        self.maximumBatch = maximumBatch
        self.onCommit = onCommit
    }

    deinit {
        // The thread keeps the writer alive while it runs, so it has ended (or never started) by now.
        assert(state == .closed || state == .ready, "a writer went away while its thread ran")
    }

    func start() {
        condition.lock()
        precondition(state == .ready, "a writer starts once")
        state = .running
        condition.unlock()
        thread.enter()
        let worker = Thread { [self] in
            run()
            thread.leave()
        }
        worker.name = "muster-writer"
        worker.qualityOfService = .userInitiated
        worker.start()
    }

    /// Queues a job; fails it at once when the writer is closing or closed.
    func submit(_ job: any WriterJob) {
        condition.lock()
        guard state == .running || state == .ready else {
            let closing = state == .draining
            condition.unlock()
            job.finish(
                committed: .failure(
                    closing
                        ? StoreError(.closed, "the event store is closing; retry against the new instance")
                        : StoreError(.closed, "the event store was closed; nothing was written")))
            return
        }
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Jobs waiting for the thread (for tests that close a writer with work in its queue).
    var queuedJobs: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Refuses new jobs, lets the thread commit every queued one and end; with `waiting`, returns once it has
    /// ended (every acknowledged job durable). Safe to call more than once and from any thread but the writer's.
    func close(waiting: Bool = true) {
        condition.lock()
        switch state {
        case .ready: state = .closed
        case .running:
            state = .draining
            condition.signal()
        case .draining, .closed: break
        }
        condition.unlock()
        if waiting { thread.wait() }
    }

    private func run() {
        var acknowledged = 0
        while true {
            condition.lock()
            while queue.isEmpty && state == .running { condition.wait() }
            if queue.isEmpty {
                state = .closed
                condition.unlock()
                return
            }
            gatherReturningCallers(expected: acknowledged)
            let count = min(queue.count, maximumBatch)
            let batch = Array(queue.prefix(count))
            queue.removeFirst(count)
            condition.unlock()
            let started = DispatchTime.now().uptimeNanoseconds
            process(batch, started: started)
            lastCommitDuration = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            acknowledged = count
        }
    }

    /// Callers resumed by the last commit usually come straight back with their next job; committing
    /// as soon as the first arrives would spend a whole durable commit on a handful of them. So wait
    /// while fewer than the last batch's callers are back — at most half as long as the last commit
    /// took (and never more than 2 ms), so waiting can cost at most a third of the throughput it
    /// gains. Under light load (a batch of one) this never waits. Called with `condition` locked.
    private func gatherReturningCallers(expected: Int) {
        guard expected > 1, queue.count < expected, state == .running else { return }
        let window = min(0.002, lastCommitDuration / 2)
        let deadline = Date(timeIntervalSinceNow: window)
        while queue.count < expected && state == .running {
            if !condition.wait(until: deadline) { return }
        }
    }

    private func process(_ jobs: [any WriterJob], started: UInt64) {
        var excluded = Set<ObjectIdentifier>()
        while true {
            do {
                let (before, head) = try commit(jobs, excluding: &excluded)
                for job in jobs { job.finish(committed: .success(())) }
                let elapsed = DispatchTime.now().uptimeNanoseconds - started
                onCommit(
                    head,
                    EventLog.Commit(jobs: jobs.count, events: head - before, duration: .nanoseconds(Int64(elapsed))))
                return
            } catch is RunBatchAgain {
                continue
            } catch let error as StoreError where error.isMapFull {
                for job in jobs where !excluded.contains(ObjectIdentifier(job)) { job.reset() }
                do {
                    try core.environment.growMap()
                } catch {
                    fail(jobs, error)
                    return
                }
            } catch {
                fail(jobs, error)
                return
            }
        }
    }

    private func fail(_ jobs: [any WriterJob], _ error: any Error) {
        let failure = error as? StoreError ?? StoreError(.lmdb, "\(error)")
        for job in jobs { job.finish(committed: .failure(failure)) }
    }

    /// A job failed after writing: the transaction is abandoned and the batch run again without it.
    private struct RunBatchAgain: Error {}

    /// Runs the jobs in one transaction and commits it; returns the head before and after the commit.
    ///
    /// A job that throws before writing anything (the usual rejection: a conflict, invalid input) is
    /// simply not part of the commit. One that throws after writing cannot be undone piecemeal —
    /// LMDB's nested transactions would allow it, at a cost of a 2 MiB allocation per job — so the
    /// whole transaction is aborted and the batch runs again without that job.
    private func commit(_ jobs: [any WriterJob], excluding excluded: inout Set<ObjectIdentifier>) throws -> (
        before: UInt64, after: UInt64
    ) {
        let txn = try core.environment.beginWrite()
        var ended = false
        do {
            let head = try core.reading(txn).head()
            lastRecordedAt = max(lastRecordedAt, core.clock())
            let batch = WriterBatch(head: head, recordedAt: lastRecordedAt)
            let scope = WriteScope(txn: txn, core: core, batch: batch)
            for job in jobs where !excluded.contains(ObjectIdentifier(job)) {
                let before = (batch.head, batch.appended, txn.writeCount, batch.chain)
                do {
                    try job.run(scope)
                } catch let error as StoreError where error.endsTransaction {
                    throw error
                } catch {
                    guard txn.writeCount == before.2 else {
                        excluded.insert(ObjectIdentifier(job))
                        throw RunBatchAgain()
                    }
                    (batch.head, batch.appended, batch.chain) = (before.0, before.1, before.3)
                }
            }
            try scope.linkCommit()
            ended = true
            try core.environment.commit(txn)
            return (head, batch.head)
        } catch {
            if !ended { core.environment.abort(txn) }
            throw error
        }
    }
}
