import EventLogTesting
import Foundation
import Testing

@testable import EventLog

@Suite struct VerifyTests {
    /// A log with events in a few streams, a blob, and the async statistics caught up to `caughtUp`.
    static func populated(_ t: TestLog, events: Int = 40, caughtUp: Bool = true) async throws -> EventLog {
        let log = try t.open()
        for i in 1...events {
            try await log.append(
                AppendRequest(stream: "s\(i % 4)", events: [.sample(i % 2 == 0 ? "Even" : "Odd", n: i)]))
        }
        try await log.blobs.put(compressibleBytes(1_200_000))
        if caughtUp { try await log.catchUpAsyncProjections() }
        return log
    }

    @Test func aHealthyStoreHasNoProblems() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t, caughtUp: false)
        // The statistics are partly caught up: compared at their checkpoint, not the head.
        try await log.catchUpAsyncProjections()
        for i in 0..<5 { try await log.append(AppendRequest(stream: "late", events: [.sample(n: i)])) }
        let report = try await log.verify()
        #expect(report.isHealthy, "\(report.problems)")
        #expect(report.head == 45)
        #expect(report.events == 45)
        #expect(report.blobs == 1)
        #expect(report.unreferencedChunks == 0)
        let statistics = try #require(report.projections.first { $0.name == LogStatistics.name })
        #expect(statistics.compared && statistics.comparedUpTo == 40)
        let byType = try #require(report.projections.first { $0.name == PositionIndex.byType.name })
        #expect(byType.compared && byType.comparedUpTo == 45 && byType.differences == 0)
    }

    @Test func aDamagedEnvelopeIsReportedByPosition() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        let events = log.core.tables.events
        try await log.perform { scope in
            var value = try #require(try scope.txn.get(events, Key.position(13)))
            value[value.count - 7] ^= 0x20  // inside the body: decodes, but the checksum no longer matches
            try scope.txn.put(events, Key.position(13), value)
        }
        let report = try await log.verify()
        #expect(!report.isHealthy)
        #expect(
            report.problems.contains {
                $0.area == "events" && $0.message.contains("event at position 13 fails its checksum")
            }, "\(report.problems)")
    }

    @Test func aProjectionThatDiffersFromARebuildIsReported() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        try await log.perform { scope in
            try Array("Bogus".utf8).withUnsafeBytes { key in
                try scope.projection(PositionIndex.byType.name).appendValues(
                    PositionIndex.table, key: key, ascending: [1])
            }
            let removed = try scope.projection(PositionIndex.byNamespace.name).deleteValue(
                PositionIndex.table, key: Array("default".utf8), 3)
            #expect(removed)
        }
        let report = try await log.verify()
        #expect(report.problemCount == 2, "\(report.problems)")
        let byType = try #require(report.problems.first { $0.message.hasPrefix(PositionIndex.byType.name) })
        #expect(byType.area == "projection")
        #expect(
            byType.message.contains("key \"Bogus\" value 1 is stored but not produced by the rebuild"),
            "\(byType.message)")
        let byNamespace = try #require(report.problems.first { $0.message.hasPrefix(PositionIndex.byNamespace.name) })
        #expect(
            byNamespace.message.contains("key \"default\" value 3 is produced by the rebuild but missing"),
            "\(byNamespace.message)")
        #expect(report.projections.first { $0.name == PositionIndex.byType.name }?.differences == 1)
    }

    @Test func anAsyncProjectionIsComparedAtItsCheckpoint() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        try await log.perform { scope in
            let state = try scope.projection(LogStatistics.name)
            try state.put(LogStatistics.table, Key.joined("default", "Even"), [UInt8](repeating: 9, count: 16))
        }
        let report = try await log.verify()
        let problem = try #require(report.problems.first { $0.message.hasPrefix(LogStatistics.name) })
        #expect(problem.message.contains("holds 16 bytes, the rebuild 16 different bytes"))
    }

    @Test func brokenIndexesAreReported() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        let tables = log.core.tables
        let strayId = UUID()
        try await log.perform { scope in
            // Stream s1 loses its head row; a stray id points at position 6.
            try scope.txn.delete(tables.streamHeads, Key.joined("default", "s1"))
            try scope.txn.put(tables.eventIds, withUnsafeBytes(of: strayId.uuid) { Array($0) }, Key.position(6))
        }
        let report = try await log.verify()
        #expect(
            report.problems.contains {
                $0.area == "streams"
                    && $0.message.contains("stream default/s1 ends with version") && $0.message.contains("says nothing")
            }, "\(report.problems)")
        #expect(report.problems.contains { $0.area == "eventIds" && $0.message.contains(strayId.uuidString) })
    }

    @Test func aDamagedBlobChunkIsReported() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        let info = try await log.blobs.put(randomBytes(2_500_000)).info
        try await damageChunk(log, of: info, index: 2, at: 40)
        let report = try await log.verify()
        #expect(report.blobs == 2)
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.area == "blobs")
        #expect(
            report.problems.first?.message.contains("blob \(info.id) chunk 2 of 3 fails its checksum") == true,
            "\(report.problems)")
    }
}
