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
            while stored.reads < 2 { await Task.yield() }
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
        let cancelled = Task { await signal.wait(beyond: 4) }
        cancelled.cancel()
        await cancelled.value
    }
}
