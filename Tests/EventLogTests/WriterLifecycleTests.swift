import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// The writer's life: it drains what was queued when closed, and refuses what comes after.
@Suite struct WriterLifecycleTests {
    @Test func anAppendAfterCloseFailsAsClosedAndWritesNothing() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        try await log.append(AppendRequest(stream: "s", events: [.sample()]))
        log.close()
        let error = await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: "s", events: [.sample(n: 1)]))
        }
        #expect(error?.code == .closed)
        #expect(error?.message == "the event store was closed; nothing was written")
        log.close()  // a second close is harmless
        let reopened = try t.open()
        defer { reopened.close() }
        #expect(try reopened.events(EventQuery()).count == 1)
    }

    @Test func closeDrainsEveryQueuedAppendAndRefusesNewOnes() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let gate = Gate()
        // Hold the writer thread so the appends below wait in its queue.
        let blocker = Task { try await log.perform { _ in gate.wait() } }
        while !gate.entered { await Task.yield() }
        let appends = Task {
            try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for i in 0..<50 {
                    group.addTask { try await log.append(AppendRequest(stream: "s\(i)", events: [.sample(n: i)])) }
                }
                return try await group.reduce(into: [AppendResult]()) { $0.append($1) }
            }
        }
        while log.writer.queuedJobs < 50 { await Task.yield() }

        log.writer.close(waiting: false)
        let late = await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: "late", events: [.sample()]))
        }
        #expect(late?.code == .closed)
        gate.open()
        log.close()

        try await blocker.value
        let acknowledged = try await appends.value
        #expect(acknowledged.count == 50)
        let reopened = try t.open()
        defer { reopened.close() }
        let stored = try reopened.events(EventQuery())
        #expect(Set(stored.map(\.stream)) == Set((0..<50).map { "s\($0)" }))
        #expect(Set(acknowledged.flatMap(\.positions)) == Set(stored.map(\.position)))
    }
}

/// A job that holds the writer thread until the test opens it.
private final class Gate: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var isOpen = false
    private var hasEntered = false

    var entered: Bool {
        condition.lock()
        defer { condition.unlock() }
        return hasEntered
    }

    /// Blocks the calling (writer) thread until `open()`.
    func wait() {
        condition.lock()
        hasEntered = true
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
