import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// Events appended as another log stored them (a replica following its primary): the same bytes at the same
/// positions, so the replica reads back as the primary, and nothing that would make the two logs differ is taken.
@Suite struct StoredEventTests {
    /// A primary with `count` events in three streams of two namespaces, written in commits of one to three events.
    static func primary(_ t: TestLog, count: Int = 40) async throws -> EventLog {
        let log = try t.open()
        var n = 0
        while n < count {
            let size = min(n % 3 + 1, count - n)
            let events = (0..<size).map { NewEvent.sample(n % 2 == 0 ? "Even" : "Odd", n: n + $0) }
            try await log.append(
                AppendRequest(namespace: n % 5 == 0 ? "other" : "default", stream: "s\(n % 3)", events: events))
            n += size
        }
        return log
    }

    /// Every table of the environment but the commit chain and `meta` (checkpoints, versions), entry by entry.
    static func tables(_ log: EventLog) throws -> [String: [Transaction.Entry]] {
        try log.environment.read { txn in
            var tables: [String: [Transaction.Entry]] = [:]
            for name in try log.environment.tableNames(startingWith: "", in: txn)
            where name != LogTables.names.commits && name != LogTables.names.meta {
                let table = try #require(try log.environment.table(name, in: txn, create: false))
                var entries: [Transaction.Entry] = []
                try txn.scan(table) { key, value in
                    entries.append(Transaction.Entry((key, value)))
                    return true
                }
                tables[name] = entries
            }
            return tables
        }
    }

    @Test func aReplicaOfEveryStoredEventHoldsTheSameTablesAsItsPrimary() async throws {
        let (p, r) = (try TestLog("primary"), try TestLog("replica"))
        let primary = try await Self.primary(p)
        let replica = try r.open()
        var next: UInt64 = 1
        while true {  // in runs of 7, as a follower fetches them
            let run = try primary.read { try $0.storedEvents(from: next, limit: 7) }
            if run.isEmpty { break }
            try await replica.appendStored(run)
            next = run.last!.position + 1
        }
        _ = try await primary.catchUpAsyncProjections()
        _ = try await replica.catchUpAsyncProjections()
        #expect(replica.head == 40)
        let (mine, theirs) = (try Self.tables(primary), try Self.tables(replica))
        #expect(mine.keys.sorted() == theirs.keys.sorted())
        for name in mine.keys { #expect(mine[name] == theirs[name], "table \(name)") }
        #expect(try replica.read { try $0.streamVersion(namespace: "other", stream: "s0") } > 0)
        // The replica goes on as a log of its own: an append continues the stream after the replicated events.
        let version = try replica.read { try $0.streamVersion(stream: "s1") }
        let appended = try await replica.append(AppendRequest(stream: "s1", events: [.sample(n: 99)]))
        #expect(appended.positions == [41] && appended.version == version + 1)
    }

    @Test func anEventThatDoesNotFollowTheHeadIsRefusedAndNothingOfItsRunIsKept() async throws {
        let (p, r) = (try TestLog("primary"), try TestLog("replica"))
        let primary = try await Self.primary(p, count: 10)
        let replica = try r.open()
        let events = try primary.read { try $0.storedEvents(from: 1, limit: 10) }
        try await replica.appendStored(Array(events[0..<3]))
        for run in [[events[4]], [events[3], events[5]], [events[2]]] {  // a gap, a gap inside a run, a repeat
            await #expect(throws: StoreError.self) { try await replica.appendStored(run) }
            #expect(replica.head == 3)
        }
        try await replica.appendStored(Array(events[3...]))
        #expect(replica.head == 10)
    }

    @Test func bytesThatAreNotTheEnvelopeStoredAtThatPositionAreRefused() async throws {
        let p = try TestLog("primary")
        let primary = try await Self.primary(p, count: 3)
        let event = try #require(try primary.read { try $0.storedEvents(from: 2, limit: 1) }.first)
        #expect(throws: StoreError.self) { try StoredEvent(position: 3, envelope: event.envelope) }
        var flipped = event.envelope
        flipped[flipped.count / 2] ^= 0x01
        #expect(throws: StoreError.self) { try StoredEvent(position: 2, envelope: flipped) }
        // Past the public check (as bytes changed in transit after it): the append checks again.
        let replica = try TestLog("replica").open()
        try await replica.appendStored(try primary.read { try $0.storedEvents(from: 1, limit: 1) })
        await #expect(throws: StoreError.self) {
            try await replica.appendStored([StoredEvent(position: 2, id: event.id, envelope: flipped)])
        }
        #expect(replica.head == 1)
    }

    @Test func aReplicaThatWroteAnEventOfItsOwnRefusesThePrimarysAsDiverged() async throws {
        let (p, r) = (try TestLog("primary"), try TestLog("replica"))
        let primary = try p.open()
        for stream in ["s", "t", "s"] { try await primary.append(AppendRequest(stream: stream, events: [.sample()])) }
        let events = try primary.read { try $0.storedEvents(from: 1, limit: 3) }
        let replica = try r.open()
        try await replica.appendStored([events[0]])
        // The replica takes a write of its own: stream "s", version 2, at position 2.
        try await replica.append(AppendRequest(stream: "s", events: [.sample(n: -1)]))
        // The primary's position 2 is taken here; its position 3 continues "s" from version 1 at position 1.
        await #expect(throws: StoreError.self) { try await replica.appendStored([events[1]]) }
        await #expect(throws: StoreError.self) { try await replica.appendStored([events[2]]) }
        #expect(replica.head == 2)
        #expect(try replica.read { try $0.streamVersion(stream: "t") } == 0)
    }

    @Test func anEventIdTheReplicaHoldsAlreadyIsRefusedAsDiverged() async throws {
        let (p, r) = (try TestLog("primary"), try TestLog("replica"))
        let id = UUID()
        let primary = try p.open()
        try await primary.append(AppendRequest(stream: "a", events: [.sample(n: 1)]))
        try await primary.append(AppendRequest(stream: "b", events: [.sample(n: 2, id: id)]))
        let replica = try r.open()
        try await replica.append(AppendRequest(stream: "c", events: [.sample(n: 3, id: id)]))
        let second = try primary.read { try $0.storedEvents(from: 2, limit: 1) }
        await #expect(throws: StoreError.self) { try await replica.appendStored(second) }
        #expect(replica.head == 1)
    }
}
