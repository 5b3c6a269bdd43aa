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
}
