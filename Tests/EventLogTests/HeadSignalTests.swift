import EventLogTesting
import Synchronization
import Testing

@testable import EventLog

/// How live tails wait for the head to move.
@Suite struct HeadSignalTests {
    /// The head as another process would move it: read by the signal's poll, counted.
    final class StoredHead: Sendable {
        private let state = Mutex((head: UInt64(0), reads: 0))
        var reads: Int { state.withLock { $0.reads } }
        func move(to head: UInt64) { state.withLock { $0.head = head } }
        func read() -> UInt64? {
            state.withLock { state in
                state.reads += 1
                return state.head
            }
        }
    }

    /// A thousand tails waiting on the stored head share one poll: another process's commit wakes them all, after a
    /// handful of reads of the stored head rather than one per tail per look.
    @Test func aThousandWaitingTailsShareOneLookAtTheStoredHead() async {
        let stored = StoredHead()
        let signal = HeadSignal(storedHead: stored.read)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 { group.addTask { await signal.wait(beyond: 0) } }
            // Some polls go by with every tail waiting (at least one read sees nothing new), then the head moves.
            let deadline = ContinuousClock.now + .seconds(10)
            while stored.reads < 2 && ContinuousClock.now < deadline { await Task.yield() }
            stored.move(to: 1)
            await group.waitForAll()
        }
        #expect(stored.reads < 100, "\(stored.reads) reads of the stored head")
    }

    @Test func thisProcesssCommitWakesATailAtOnceAndATimeoutEndsAWait() async {
        let stored = StoredHead()
        let signal = HeadSignal(storedHead: stored.read)
        signal.publish(3)
        await signal.wait(beyond: 2)  // past it already: returns at once
        let woken = Task { await signal.wait(beyond: 3) }
        signal.publish(4)
        await woken.value
        // Nothing moves: the timeout ends the wait.
        await signal.wait(beyond: 4, timeout: .milliseconds(20))
        // A timeout that runs out before the wait is registered still ends it.
        for _ in 0..<200 { await signal.wait(beyond: 4, timeout: .zero) }
        let cancelled = Task { await signal.wait(beyond: 4) }
        cancelled.cancel()
        await cancelled.value
    }

    /// A follower caught up and waiting when its log is closed is woken by the next look at the stored head, which
    /// fails: it ends with the store's error rather than waiting for ever.
    @Test func aFollowerWaitingWhenTheLogClosesEndsWithTheError() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let follower = Task {
            var events = log.follow(EventQuery()).makeAsyncIterator()
            return try await events.next()
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while log.signal.waiting == 0 && ContinuousClock.now < deadline { await Task.yield() }
        try #require(log.signal.waiting == 1, "the follower never waited")
        log.close()
        await #expect(throws: StoreError.self) { try await follower.value }
    }
}
