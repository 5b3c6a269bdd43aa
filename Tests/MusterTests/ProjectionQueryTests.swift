import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// A projection's queries answer the same on a read snapshot and inside the writer's transaction,
/// where they also see what the transaction appended before them.
@Suite struct ProjectionQueryTests {
    /// The pending messages and the registered user, as one query function reads them on any snapshot.
    func look(_ snapshot: some LogSnapshot) throws -> (pending: [UUID], user: String?, group: [String]?) {
        (
            try snapshot.inbox.pending(user: "joe", namespace: "default").map(\.messageId),
            try snapshot.directory.user("joe", namespace: "default")?.name,
            try snapshot.directory.group("ops", namespace: "default")?.members
        )
    }

    @Test func oneQueryServesAReaderAndTheWriter() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        try await directory.addUser("joe", password: nil)
        let sent = try await Notifications(log: log).send(to: ["joe"], title: "T", body: "B", payload: colourPayload)
        let read = try log.read { try look($0) }
        #expect(read.pending == sent.messageIds)
        #expect(read.user == "joe")
        #expect(read.group == nil)
        let inWriter = try await log.perform { scope in
            let before = try look(scope)
            try scope.append(
                AppendRequest(
                    stream: "group/ops", events: [GroupDefined(name: "ops", members: ["joe"]).newEvent(actor: "t")]))
            return (before.pending, before.group, try look(scope).group)
        }
        #expect(inWriter.0 == read.pending)
        #expect(inWriter.1 == nil)
        #expect(inWriter.2 == ["joe"])
    }

    @Test func aProjectionIsNotGivenEventsOfTypesItDoesNotDeclare() throws {
        let inbox = InboxProjection()
        #expect(inbox.eventTypes == [PayloadSent.type, ResponseReceived.type, UserRemoved.type, MessageWithdrawn.type])
        for projection in MusterDomain.projections {
            // Every domain projection names the types it folds; only the log's own indexes take all.
            #expect(projection.eventTypes?.isEmpty == false, "\(projection.name)")
        }
    }
}
