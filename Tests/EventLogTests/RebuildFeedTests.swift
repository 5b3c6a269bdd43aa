import CLMDB
import EventLogTesting
import Foundation
import Synchronization
import Testing

@testable import EventLog

/// A rebuild decodes the log ahead on a thread of its own and folds it in runs of thousands of events; the state it
/// swaps in is the one folding each event inline, as it was appended, made.
@Suite struct RebuildFeedTests {
    /// Appends `count` events over 7 streams, 5 types and 2 namespaces, 500 to a commit.
    static func fill(_ log: EventLog, _ count: Int) async throws {
        for first in stride(from: 0, to: count, by: 500) {
            try await log.perform { scope in
                for n in first..<min(first + 500, count) {
                    try scope.append(
                        AppendRequest(
                            namespace: n % 3 == 0 ? "north" : "south", stream: "s\(n % 7)",
                            events: [.sample("T\(n % 5)", n: n)]))
                }
            }
        }
    }

    /// What the built-in projections answer: the positions of every type and namespace, and the statistics.
    static func answers(_ log: EventLog) throws -> [String] {
        let types = try (0..<5).map { type in
            "T\(type): "
                + (try log.events(EventQuery(type: "T\(type)")).map { String($0.position) }.joined(separator: ","))
        }
        let namespaces = try [String](["north", "south"]).map { namespace in
            "\(namespace): "
                + (try log.events(EventQuery(namespace: namespace)).map { String($0.position) }.joined(separator: ","))
        }
        let statistics = try log.read { try LogStatistics.rows($0.projection(LogStatistics.name)) }
            .map { "\($0.namespace) \($0.type) \($0.events) \($0.bodyBytes)" }.sorted()
        return types + namespaces + statistics
    }

    @Test func aRebuildInStepsThatCutItsRunsEqualsTheStateFoldedInline() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        defer { log.close() }
        try await Self.fill(log, 20_000)
        try await log.catchUpAsyncProjections()
        let inline = try Self.answers(log)
        #expect(inline.count == 5 + 2 + 10)
        #expect(inline[0].hasPrefix("T0: 1,6,11,"), "\(inline[0].prefix(40))")

        let steps = Collected<RebuildProgress>()
        try await log.rebuild(eventsPerStep: 5_000) { steps.add($0) }  // no multiple of a run's 4,096

        #expect(try Self.answers(log) == inline)
        #expect(steps.items.filter { $0.projection == "byType" }.map(\.checkpoint) == [5_000, 10_000, 15_000, 20_000])
        let report = try await log.verify()
        #expect(report.problemCount == 0, "\(report.problems)")
    }

    /// Counts every event per stream, and fails its first fold of `failAt` during a rebuild with LMDB's "transaction
    /// full", after the step took runs from the feed: the rebuild retries smaller steps, reading the log itself.
    struct StepTooBig: Projection {
        let name = "stepTooBig"
        let version: UInt32 = 1
        let mode = ProjectionMode.inline
        let tables = ["counts"]
        let eventTypes: Set<String>? = nil
        let failAt: UInt64
        let failed = Once()

        final class Once: Sendable {
            private let done = Mutex(false)
            /// True the first time only.
            func first() -> Bool {
                done.withLock { done in
                    defer { done = true }; return !done
                }
            }
        }

        func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
            if state.isReplaying && event.position == failAt && failed.first() {
                throw StoreError(.io, "transaction full", returnCode: MDB_TXN_FULL)
            }
            let key = Array(event.stream.utf8)
            let count = try state.get("counts", key).map {
                UInt64(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
            }
            try state.put("counts", key, withUnsafeBytes(of: ((count ?? 0) + 1).littleEndian) { Array($0) })
        }

        static func counts(_ log: EventLog) throws -> [UInt64] {
            try log.read { reader in
                let state = try reader.projection("stepTooBig")
                return try (0..<7).map { stream in
                    try state.get("counts", Array("s\(stream)".utf8)).map {
                        UInt64(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
                    } ?? 0
                }
            }
        }
    }

    @Test func aStepThatFailedAfterTakingDecodedRunsIsFoldedAgainFromTheLog() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let projection = StepTooBig(failAt: 9_000)
        let log = try t.open { $0.projections.append(projection) }
        defer { log.close() }
        try await Self.fill(log, 15_000)
        let inline = try StepTooBig.counts(log)
        #expect(inline.reduce(0, +) == 15_000)

        try await log.rebuild([projection.name], eventsPerStep: 12_000)

        #expect(!projection.failed.first(), "the rebuild met the failure")
        #expect(try StepTooBig.counts(log) == inline)
    }

    @Test func aValueSetKeepsItsValuesAscendingAndRefusesOneBelowItsLast() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        defer { log.close() }
        try await Self.fill(log, 10)
        try await log.perform { scope in
            let index = try scope.projection(PositionIndex.byType.name)
            let key = PositionIndex.key("T1")
            var seen: [UInt64] = []
            try index.scanValues(PositionIndex.table, key: key, from: 0) {
                seen.append($0); return true
            }
            #expect(seen == [2, 7])
            try index.scanValues(PositionIndex.table, key: key, from: 3) {
                seen.append($0); return true
            }
            #expect(seen == [2, 7, 7], "from the first value at or above 3")
            #expect(throws: StoreError.self) {
                try key.withUnsafeBytes { try index.appendValues(PositionIndex.table, key: $0, ascending: [5]) }
            }
            #expect(try index.deleteValue(PositionIndex.table, key: key, 2))
            #expect(try !index.deleteValue(PositionIndex.table, key: key, 2))
            seen = []
            try index.scanValues(PositionIndex.table, key: key, from: 0) {
                seen.append($0); return true
            }
            #expect(seen == [7])
        }
        // A type no event can have (empty, or too long for a key) is asked for without an error (found by the API
        // fuzzer: `GET /api/v1/events?type=` answered 500).
        #expect(try log.events(EventQuery(type: "")).isEmpty)
        #expect(try log.events(EventQuery(type: String(repeating: "T", count: 600))).isEmpty)
        #expect(try log.events(EventQuery(namespace: "")).isEmpty)
        #expect(try log.events(EventQuery(type: "T1")).map(\.position) == [7])
    }
}
