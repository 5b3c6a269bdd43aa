import EventLog
import EventLogTesting
import Foundation
import MusterWire
import Testing

@testable import Muster

/// A message withdrawn before it is answered: it leaves its recipient's inbox, can no longer be read or answered by
/// them, and its pushes still waiting are not sent. A message is answered or withdrawn, once.
@Suite struct WithdrawalTests {
    @Test func aWithdrawnMessageLeavesTheInboxAndItsPushesAreNotSent() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let notifications = Notifications(log: f.log)
        let ids = try await OutboxTests().send(f, to: ["ann", "joe"])
        #expect(try f.deliveries.due(at: f.t.clock.now, limit: 10).count == 1)

        let withdrawn = try await notifications.withdraw([ids[0]], actor: "ada")

        #expect(withdrawn.map(\.user) == ["ann"])
        #expect(try notifications.inbox(user: "ann").isEmpty)
        #expect(try notifications.inbox(user: "joe").map(\.messageId) == [ids[1]])
        #expect(try notifications.message(id: ids[0], user: "ann") == nil)
        let delivery = try #require(try f.deliveries.list().first)
        #expect(delivery.status == .expired && delivery.lastReason == "the message was withdrawn")
        #expect(try f.deliveries.due(at: f.t.clock.now, limit: 10).isEmpty)
        await #expect {
            _ = try await notifications.respond(
                messageId: ids[0], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
                as: Respondent(user: "ann", deviceId: "browser"))
        } throws: { ($0 as? MusterError)?.code == .notFound && "\($0)".contains("was withdrawn by its sender") }
        // The same from the events alone.
        try await f.log.rebuild([InboxProjection.name, OutboxProjection.name])
        #expect(try notifications.inbox(user: "ann").isEmpty)
        #expect(try f.deliveries.list().first?.lastReason == "the message was withdrawn")
    }

    @Test func anAnsweredWithdrawnOrUnknownMessageIsRefusedAndNothingIsWritten() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let notifications = Notifications(log: f.log)
        let ids = try await OutboxTests().send(f, to: ["ann", "joe"])
        _ = try await notifications.respond(
            messageId: ids[1], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d"))
        let head = f.log.head

        for (batch, code, text) in [
            ([ids[0], ids[1]], MusterError.Code.conflict, "was answered already by joe"),
            ([UUID()], .notFound, "was sent in namespace default"),
        ] {
            await #expect {
                try await notifications.withdraw(batch)
            } throws: { ($0 as? MusterError)?.code == code && "\($0)".contains(text) }
        }
        #expect(f.log.head == head, "nothing was recorded")
        #expect(try notifications.inbox(user: "ann").map(\.messageId) == [ids[0]])

        try await notifications.withdraw([ids[0], ids[0]])
        #expect(f.log.head == head + 1, "one withdrawal for an id given twice")
        await #expect {
            try await notifications.withdraw([ids[0]])
        } throws: { ($0 as? MusterError)?.code == .conflict && "\($0)".contains("withdrawn already") }
    }

    @Test func theInboxStreamAndTheAuditSayItWasWithdrawn() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let notifications = Notifications(log: f.log)
        let from = f.log.head + 1
        let ids = try await OutboxTests().send(f, to: ["ann"])
        try await notifications.withdraw(ids, actor: "ada")

        var changes: [Notifications.InboxUpdate.Change] = []
        for try await update in notifications.inboxUpdates(user: "ann", from: from) {
            changes.append(update.change)
            if changes.count == 2 { break }
        }
        #expect(changes.last == .withdrawn(messageId: ids[0]))

        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "ann"))
        let entry = try #require(audit.last)
        #expect(entry.what == .messageWithdrawn && entry.messageId == ids[0] && entry.title == "Shift")
        #expect(entry.detail == "message \(ids[0].uuidString.lowercased()) (\"Shift\") to ann withdrawn by ada")
        // Ada's own audit has it too; joe's, who had nothing to do with it, not.
        #expect(try Audit(log: f.log).entries(Audit.Filter(user: "ada")).map(\.what) == [.messageWithdrawn])
        #expect(try Audit(log: f.log).entries(Audit.Filter(user: "joe")).map(\.what) == [.userCreated])
    }
}
