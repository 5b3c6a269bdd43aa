import EventLog
import EventLogTesting
import Foundation
import Testing

@Suite struct AppendTests {
    @Test func appendedEventsGetContiguousPositionsAndStreamVersions() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let first = try await log.append(AppendRequest(stream: "orders-1", events: [.sample(n: 1), .sample(n: 2)]))
        let second = try await log.append(AppendRequest(stream: "orders-2", events: [.sample(n: 3)]))
        #expect(first.positions == [1, 2])
        #expect(first.version == 2)
        #expect(second.positions == [3])
        #expect(second.version == 1)
        let events = try log.events(EventQuery())
        #expect(events.map(\.position) == [1, 2, 3])
        #expect(events.map(\.stream) == ["orders-1", "orders-1", "orders-2"])
        #expect(events[2].body == .json("{\"n\":3}"))
        #expect(events[0].recordedAt == t.clock.now)
    }

    @Test func expectedVersionMismatchNamesTheActualVersion() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        try await log.append(AppendRequest(stream: "s", expectedVersion: .noStream, events: [.sample()]))
        let error = await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: "s", expectedVersion: .exact(5), events: [.sample()]))
        }
        #expect(error?.code == .conflict)
        #expect(error?.actualVersion == 1)
        #expect(error?.message.contains("version 1") == true)
        #expect(log.head == 1)
        let ok = try await log.append(AppendRequest(stream: "s", expectedVersion: .exact(1), events: [.sample()]))
        #expect(ok.version == 2)
        await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: "new", expectedVersion: .streamExists, events: [.sample()]))
        }
    }

    @Test func reappendingTheSameIdsReturnsTheOriginalPositions() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let events = [NewEvent.sample(n: 1), .sample(n: 2)]
        let first = try await log.append(AppendRequest(stream: "s", expectedVersion: .noStream, events: events))
        try await log.append(AppendRequest(stream: "other", events: [.sample()]))
        let again = try await log.append(AppendRequest(stream: "s", expectedVersion: .noStream, events: events))
        #expect(again.positions == first.positions)
        #expect(again.wasDuplicate)
        #expect(log.head == 3)
        let partial = await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: "s", events: [events[0], .sample()]))
        }
        #expect(partial?.code == .idempotency)
        #expect(log.head == 3)
    }

    @Test func anIdTwiceInOneAppendIsRefusedAndNothingIsStored() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let twice = NewEvent.sample(n: 1)
        let error = await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: "s", events: [.sample(n: 0), twice, .sample(n: 2), twice]))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\(twice.id.uuidString.lowercased()) appears twice") == true)
        #expect(log.head == 0)
        let many = (0..<1_000).map { NewEvent.sample(n: $0) }
        #expect(try await log.append(AppendRequest(stream: "s", events: many)).positions == Array(1...1_000))
    }

    @Test func concurrentAppendersAllGetDistinctContiguousPositions() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let positions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for task in 0..<64 {
                group.addTask {
                    var mine: [UInt64] = []
                    for i in 0..<50 {
                        let r = try await log.append(AppendRequest(stream: "s-\(task)", events: [.sample(n: i)]))
                        mine += r.positions
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(positions.sorted() == Array(1...3200))
        let events = try log.events(EventQuery(stream: "s-7"))
        #expect(events.map(\.version) == Array(1...50))
    }
}
