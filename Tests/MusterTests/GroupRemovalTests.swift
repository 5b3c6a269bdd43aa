import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// A group removed: sends can no longer name it, its members stay users and their audit says they left it.
@Suite struct GroupRemovalTests {
    @Test func aRemovedGroupIsGoneForSendsButItsMembersStay() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        for name in ["joe", "ann"] { try await directory.addUser(name, password: nil) }
        try await directory.defineGroup("ops", members: ["joe", "ann"])
        try await directory.defineGroup("night", members: ["ann"])

        let removed = try await directory.removeGroup("ops", actor: "ada")

        #expect(removed.members == ["joe", "ann"])
        #expect(try directory.groups().map(\.name) == ["night"])
        #expect(try directory.users().map(\.name) == ["ann", "joe"])
        await #expect {
            _ = try await Notifications(log: log).send(groups: ["ops"], title: "T", body: "B", payload: colourPayload)
        } throws: { "\($0)".contains("ops") }
        let joe = try Audit(log: log).entries(Audit.Filter(user: "joe")).map(\.detail)
        #expect(joe.last == "joe left group ops: the group was removed", "\(joe)")
        #expect(try Audit(log: log).entries(Audit.Filter()).filter { $0.what == .groupLeft }.count == 2)
        let events = try log.read { try $0.events(EventQuery(type: GroupRemoved.type)) }
        #expect(events.map(\.actor) == ["ada"])
        #expect(EventCatalogue.json(try #require(events.first)) == Data(#"{"name":"ops"}"#.utf8))

        // The name can be defined again, as a new group.
        try await directory.defineGroup("ops", members: ["ann"])
        #expect(try directory.groups().map(\.members) == [["ann"], ["ann"]])
    }

    @Test func anUnknownGroupIsNotFoundAndNothingIsWritten() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let head = log.head
        await #expect {
            try await Directory(log: log).removeGroup("ops")
        } throws: { ($0 as? MusterError)?.code == .notFound }
        #expect(log.head == head)
    }
}
