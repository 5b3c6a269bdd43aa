import EventLog
import EventLogTesting
import Foundation
import Testing

struct Refused: Error {}

@Suite struct WriterTests {
    @Test func aCommandThatFailsAfterWritingLeavesNoTraceWhileItsBatchCommits() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<200 {
                group.addTask {
                    do {
                        try await log.perform { scope in
                            try scope.append(AppendRequest(stream: "s\(i)", events: [.sample(n: i)]))
                            if i % 10 == 3 { throw Refused() }  // wrote, then refused: must vanish
                        }
                        return true
                    } catch is Refused {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { !$0 }.count == 20)
        let events = try log.events(EventQuery())
        #expect(events.count == 180)
        #expect(events.map(\.position) == Array(1...180))
        #expect(!events.contains { Int($0.stream.dropFirst())! % 10 == 3 })
    }

    @Test func submittedWritesRunInTheOrderTheyWereHandedOverWhateverOrderTheyAreAwaitedIn() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let pending = (0..<50).map { i in
            log.submit { scope -> UInt64 in
                if i == 20 { throw Refused() }
                return try scope.append(AppendRequest(stream: "s", events: [.sample(n: i)])).lastPosition
            }
        }
        var positions: [Int: UInt64] = [:]
        for i in (0..<50).reversed() {
            do {
                positions[i] = try await pending[i].value
            } catch is Refused {
                #expect(i == 20)
            }
        }
        #expect(positions.count == 49)
        #expect((0..<50).filter { $0 != 20 }.map { positions[$0]! } == Array(1...49))
        #expect(try log.events(EventQuery()).map(\.position) == Array(1...49))
    }

    @Test func aRejectedAppendDoesNotDisturbTheOthersInItsBatch() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        try await log.append(AppendRequest(stream: "taken", events: [.sample()]))
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<100 {
                group.addTask {
                    let expected: ExpectedVersion = i.isMultiple(of: 2) ? .noStream : .any
                    return
                        (try? await log.append(
                            AppendRequest(stream: "taken", expectedVersion: expected, events: [.sample(n: i)]))) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 50)
        #expect(try log.read { try $0.streamVersion(stream: "taken") } == 51)
    }

    @Test func racingRetriesOfOneAppendStoreItOnceAndAllGetItsPositions() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let events = [NewEvent.sample(n: 1), .sample(n: 2)]
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for i in 0..<100 {
                group.addTask {
                    if i.isMultiple(of: 3) {  // unrelated traffic in the same batches
                        try await log.append(AppendRequest(stream: "other-\(i)", events: [.sample(n: i)]))
                    }
                    return try await log.append(AppendRequest(stream: "once", events: events))
                }
            }
            return try await group.reduce(into: [AppendResult]()) { $0.append($1) }
        }
        let positions = Set(results.map(\.positions))
        #expect(positions.count == 1)
        #expect(results.filter { !$0.wasDuplicate }.count == 1)
        #expect(try log.events(EventQuery(stream: "once")).map(\.id) == events.map(\.id))
        #expect(log.head == 34 + 2)
    }
}
