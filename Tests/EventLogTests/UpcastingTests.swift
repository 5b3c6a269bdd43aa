import EventLog
import EventLogTesting
import Foundation
import Testing

/// Version 1 of `Renamed` had `{"n":…}`; version 2 calls it `{"count":…}`.
struct RenameN: Upcaster {
    var type: String { "Renamed" }
    var fromSchemaVersion: UInt16 { 1 }
    func upcast(_ event: RecordedEvent) -> RecordedEvent {
        var e = event
        let text = String(decoding: event.body.bytes, as: UTF8.self).replacingOccurrences(
            of: "\"n\"", with: "\"count\"")
        e.body = .json(text)
        e.schemaVersion = 2
        return e
    }
}

@Suite struct UpcastingTests {
    @Test func oldSchemaVersionsAreLiftedOnReadAndTheStoredBytesStay() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open()
            try await log.append(
                AppendRequest(stream: "s", events: [.sample("Renamed", n: 4), .sample("Other", n: 5)]))
            log.close()
        }
        let log = try t.open { $0.upcasters = UpcasterRegistry([RenameN()]) }
        let events = try log.events(EventQuery(stream: "s"))
        #expect(events[0].schemaVersion == 2)
        #expect(events[0].body == .json("{\"count\":4}"))
        #expect(events[1].body == .json("{\"n\":5}"))
        log.close()
        let plain = try t.open()
        #expect(try plain.events(EventQuery())[0].body == .json("{\"n\":4}"))
    }
}

@Suite struct FollowTests {
    @Test func followCatchesUpThenSeesNewAppends() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        try await log.append(AppendRequest(stream: "a", events: [.sample(n: 1)]))
        try await log.append(AppendRequest(stream: "b", events: [.sample(n: 2)]))
        var iterator = log.follow(EventQuery(stream: "a")).makeAsyncIterator()
        #expect(try await iterator.next()?.position == 1)
        try await log.append(AppendRequest(stream: "b", events: [.sample(n: 3)]))
        try await log.append(AppendRequest(stream: "a", events: [.sample(n: 4)]))
        let next = try await iterator.next()
        #expect(next?.position == 4)
        #expect(next?.stream == "a")
    }

    @Test func followSeesAppendsFromAnotherOpenOfTheSameDirectory() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let reader = try t.open()
        let writer = try t.open()
        var iterator = reader.follow(EventQuery(type: "Ping")).makeAsyncIterator()
        try await writer.append(AppendRequest(stream: "x", events: [.sample("Ping", n: 1)]))
        let seen = try await iterator.next()
        #expect(seen?.type == "Ping")
        #expect(seen?.position == 1)
    }
}

/// Remembers the newest schema version of `Renamed` it was given.
struct SchemaSeen: Projection {
    var name: String { "schemaSeen" }
    var version: UInt32 { 1 }
    var mode: ProjectionMode
    var tables: [String] { ["seen"] }
    var eventTypes: Set<String>? { ["Renamed"] }
    func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        #expect(event.type == "Renamed")
        try state.put("seen", [0], [UInt8(event.schemaVersion)] + event.body.bytes)
    }
    static func seen(_ state: ProjectionState) throws -> [UInt8]? { try state.get("seen", [0]) }
}

@Suite struct UpcastingInProjectionsTests {
    @Test(arguments: [ProjectionMode.inline, .async])
    func rebuildsAndTailsFeedProjectionsUpcastEvents(mode: ProjectionMode) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open()
            try await log.append(AppendRequest(stream: "s", events: [.sample("Renamed", n: 4)]))
            log.close()
        }
        let log = try t.open {
            $0.upcasters = UpcasterRegistry([RenameN()])
            $0.projections.append(SchemaSeen(mode: mode))
        }
        try await log.rebuild(["schemaSeen"])
        let rebuilt = try log.read { try SchemaSeen.seen($0.projection("schemaSeen")) }
        #expect(rebuilt == [2] + Array("{\"count\":4}".utf8))
        // Appended now with the old schema version: the projection still sees version 2.
        try await log.append(AppendRequest(stream: "s", events: [.sample("Renamed", n: 5)]))
        try await log.catchUpAsyncProjections()
        let applied = try log.read { try SchemaSeen.seen($0.projection("schemaSeen")) }
        #expect(applied == [2] + Array("{\"count\":5}".utf8))
    }
}
