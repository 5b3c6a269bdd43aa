import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// A write transaction is freed once it is over: the writer keeps nothing of it for the next one.
@Suite struct TransactionLifetimeTests {
    /// The inline projections' states are cached on the transaction and each holds the transaction; before the
    /// cache was dropped at the end, every write transaction that applied an inline projection stayed in memory
    /// (found by the soak: about 18 MB a minute at 40 location fixes a second).
    @Test func aWriteTransactionThatAppliedInlineProjectionsIsFreedAfterItsCommit() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        let seen = WeakTransactions()
        for n in 0..<3 {
            try await log.perform { scope in
                try scope.append(AppendRequest(stream: "s\(n)", events: [.sample()]))
                #expect(scope.txn.inlineProjectionStates != nil, "the append applied the inline projection")
                seen.add(scope.txn)
            }
        }
        #expect(seen.count == 3)
        #expect(seen.alive == 0, "\(seen.alive) of 3 committed write transactions are still in memory")
    }

    @Test func aWriteTransactionThatFailedIsFreedAfterItsAbort() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        let seen = WeakTransactions()
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await log.perform { scope in
                try scope.append(AppendRequest(stream: "s", events: [.sample()]))
                seen.add(scope.txn)
                throw Refused()
            }
        }
        #expect(seen.count == 1)
        #expect(seen.alive == 0, "the aborted write transaction is still in memory")
    }
}

/// Weak references to transactions, filled from the writer's thread.
private final class WeakTransactions: @unchecked Sendable {
    private struct Weak { weak var transaction: Transaction? }
    private let lock = NSLock()
    private var references: [Weak] = []

    func add(_ transaction: Transaction) { lock.withLock { references.append(Weak(transaction: transaction)) } }
    var count: Int { lock.withLock { references.count } }
    var alive: Int { lock.withLock { references.filter { $0.transaction != nil }.count } }
}
