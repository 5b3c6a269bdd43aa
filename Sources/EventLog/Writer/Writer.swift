import Foundation

/// The single writer of a process: one OS thread that drains queued jobs into one LMDB write
/// transaction (group commit) and resumes each caller only after that transaction is durable.
///
/// A job that throws (a conflict, a rejected command) leaves no trace while the others in the batch
/// commit (see `commit(_:excluding:)`). When the map is full the whole batch is aborted, the
/// map grown and the batch run again; jobs are therefore pure functions of the store's state.
final class Writer: @unchecked Sendable {
    // `queue` and `stopping` are guarded by `condition`; everything else is touched by the thread only.
    private let condition = NSCondition()
    private var queue: [any WriterJob] = []
    private var stopping = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

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

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "muster-writer"
        thread.qualityOfService = .userInitiated
        self.thread = thread
        thread.start()
    }

    /// Queues a job; fails it at once when the writer is stopping.
    func submit(_ job: any WriterJob) {
        condition.lock()
        if stopping {
            condition.unlock()
            job.finish(
                committed: .failure(StoreError(.closed, "the event store is closing; retry against the new instance")))
            return
        }
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Finishes the queued jobs, then stops the thread.
    func stop() {
        condition.lock()
        let wasRunning = !stopping && thread != nil
        stopping = true
        condition.signal()
        condition.unlock()
        if wasRunning { finished.wait() }
    }

    private func run() {
        var acknowledged = 0
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty && stopping {
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
        guard expected > 1, queue.count < expected, !stopping else { return }
        let window = min(0.002, lastCommitDuration / 2)
        let deadline = Date(timeIntervalSinceNow: window)
        while queue.count < expected && !stopping {
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
                let before = (batch.head, batch.appended, txn.writeCount)
                do {
                    try job.run(scope)
                } catch let error as StoreError where error.endsTransaction {
                    throw error
                } catch {
                    guard txn.writeCount == before.2 else {
                        excluded.insert(ObjectIdentifier(job))
                        throw RunBatchAgain()
                    }
                    (batch.head, batch.appended) = (before.0, before.1)
                }
            }
            ended = true
            try core.environment.commit(txn)
            return (head, batch.head)
        } catch {
            if !ended { core.environment.abort(txn) }
            throw error
        }
    }
}
