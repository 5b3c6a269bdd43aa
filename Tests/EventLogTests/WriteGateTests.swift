import EventLogTesting
import Foundation
import Synchronization
import Testing

@testable import EventLog

/// A replicated log asks its gate before each new event and waits for it before answering a write.
@Suite struct WriteGateTests {
    struct NotOwner: Error {}

    /// Admits while `open`; holds each acknowledgement until `release` and reports the positions asked for.
    final class TestGate: WriteGate {
        let open = Atomic<Bool>(true)
        let asked: AsyncStream<UInt64>
        private let report: AsyncStream<UInt64>.Continuation
        private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])

        init() { (asked, report) = AsyncStream<UInt64>.makeStream() }

        func admit(namespace: String) throws { if !open.load(ordering: .relaxed) { throw NotOwner() } }

        func acknowledged(through position: UInt64) async throws {
            await withCheckedContinuation { continuation in
                waiting.withLock { $0.append(continuation) }
                report.yield(position)
            }
        }

        func release() {
            for continuation in waiting.withLock({ w in
                defer { w = [] }; return w
            }) { continuation.resume() }
        }
    }

    @Test func aWriteIsAnsweredOnlyOnceTheGateAcknowledgesItsLastPosition() async throws {
        let log = try TestLog().open()
        try await log.append(AppendRequest(stream: "a", events: [.sample()]))
        let gate = TestGate()
        log.guardWrites(with: gate)
        let answered = Atomic<Bool>(false)
        let write = Task {
            let result = try await log.append(AppendRequest(stream: "a", events: [.sample(), .sample()]))
            answered.store(true, ordering: .relaxed)
            return result
        }
        var asked = gate.asked.makeAsyncIterator()
        #expect(await asked.next() == 3)
        #expect(log.head == 3)  // durable already, not yet answered
        #expect(answered.load(ordering: .relaxed) == false)
        gate.release()
        #expect(try await write.value.positions == [2, 3])
        // A write handed over with submit waits as well.
        let pending = log.submit { try $0.append(AppendRequest(stream: "b", events: [.sample()])) }
        let submitted = Task { try await pending.value }
        #expect(await asked.next() == 4)
        gate.release()
        #expect(try await submitted.value.positions == [4])
    }

    @Test func aWriteThatAppendsNothingDoesNotWaitForTheGate() async throws {
        let log = try TestLog().open()
        let gate = TestGate()
        log.guardWrites(with: gate)
        #expect(try await log.perform { $0.head } == 0)
        let id = UUID()
        try await log.perform { _ in }
        gate.open.store(false, ordering: .relaxed)
        await #expect(throws: NotOwner.self) {
            try await log.append(AppendRequest(stream: "a", events: [.sample(id: id)]))
        }
        #expect(log.head == 0)
        #expect(try log.read { try $0.position(ofEventId: id) } == nil)
    }

    @Test func eventsStoredByAnotherLogAreAppendedWhileTheGateRefusesNewOnes() async throws {
        let primary = try TestLog("primary").open()
        try await primary.append(AppendRequest(stream: "a", events: [.sample(), .sample()]))
        let replica = try TestLog("replica").open()
        let gate = TestGate()
        gate.open.store(false, ordering: .relaxed)
        replica.guardWrites(with: gate)
        let stored = try primary.read { try $0.storedEvents(from: 1, limit: 10) }
        try await replica.appendStored(stored)  // a follower's appends: no admission, no acknowledgement
        await #expect(throws: NotOwner.self) {
            try await replica.append(AppendRequest(stream: "a", events: [.sample()]))
        }
        #expect(replica.head == 2)
        replica.guardWrites(with: nil)
        #expect(try await replica.append(AppendRequest(stream: "a", events: [.sample()])).positions == [3])
    }
}
