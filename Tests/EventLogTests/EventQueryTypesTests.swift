import EventLog
import EventLogTesting
import Foundation
import Testing

/// A query for a few types reads them through the type index and answers what a scan of every event would.
@Suite struct EventQueryTypesTests {
    static let types = ["Opened", "Closed", "Noted", "Counted"]

    /// 300 events of four types in two namespaces, in a mixed order.
    static func log(_ t: TestLog) async throws -> EventLog {
        let log = try t.open()
        for n in 0..<300 {
            let type = types[(n * 7 + n / 5) % types.count]
            try await log.append(
                AppendRequest(
                    namespace: n % 3 == 0 ? "other" : "default", stream: "s\(n % 11)", events: [.sample(type, n: n)]))
        }
        return log
    }

    @Test func aQueryForTwoTypesAnswersAsAScanWould() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.log(t)
        let wanted: Set<String> = ["Opened", "Counted"]
        let all = try log.events(EventQuery())
        for namespace in [nil, "default"] as [String?] {
            for from in [1, 57, 300, 301] as [UInt64] {
                let expected = all.filter {
                    wanted.contains($0.type) && $0.position >= from && (namespace == nil || $0.namespace == namespace)
                }
                let found = try log.events(EventQuery(namespace: namespace, types: wanted, from: from))
                #expect(
                    found.map(\.position) == expected.map(\.position), "namespace \(namespace ?? "any"), from \(from)")
            }
        }
    }

    @Test(arguments: [nil, "default"] as [String?])
    func pagesOfALimitedQueryGoOnWhereTheLastStoppedAndMissNothing(namespace: String?) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.log(t)
        let wanted: Set<String> = ["Closed", "Noted"]
        let expected = try log.events(EventQuery()).filter {
            wanted.contains($0.type) && (namespace == nil || $0.namespace == namespace)
        }.map(\.position)
        var found: [UInt64] = []
        var from: UInt64 = 1
        while from <= log.head {
            var page: [UInt64] = []
            let examined = try log.read { reader in
                try reader.events(EventQuery(namespace: namespace, types: wanted, from: from, limit: 7)) {
                    page.append($0.position)
                    return true
                }
            }
            #expect(page.count <= 7)
            #expect(page.allSatisfy { $0 <= examined })
            #expect(examined >= from)
            found += page
            from = examined + 1
        }
        #expect(found == expected)
    }

    @Test func aFollowerOfTwoTypesSeesOnlyThemLiveInOrder() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.log(t)
        let head = log.head
        let events = log.follow(EventQuery(types: ["Opened", "Closed"], from: head + 1))
        for (n, type) in ["Noted", "Opened", "Counted", "Closed", "Opened"].enumerated() {
            try await log.append(AppendRequest(stream: "live", events: [.sample(type, n: n)]))
        }
        var seen: [(UInt64, String)] = []
        for try await event in events {
            seen.append((event.position, event.type))
            if seen.count == 3 { break }
        }
        #expect(seen.map(\.0) == [head + 2, head + 4, head + 5])
        #expect(seen.map(\.1) == ["Opened", "Closed", "Opened"])
    }
}
