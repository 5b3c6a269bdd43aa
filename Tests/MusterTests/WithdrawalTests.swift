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

    /// A message's push that reached a device is followed there by the withdrawal: the alert that takes its place.
    /// So is one whose push was on its way when it was withdrawn, once that push is recorded as delivered after all.
    @Test func aMessageThatReachedADeviceIsFollowedThereByItsWithdrawal() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        try await Directory(log: f.log).register(
            PushTargetRegistered(user: "joe", deviceId: "laptop", deviceName: "Firefox", platform: .web, token: "s2"))
        let notifications = Notifications(log: f.log)
        let ids = try await OutboxTests().send(f, to: ["ann", "joe"])
        let due = try f.deliveries.due(at: f.t.clock.now, limit: 10)
        let toAnn = try #require(due.first { $0.user == "ann" })
        let toJoe = try #require(due.first { $0.user == "joe" })
        try await f.deliveries.delivered(toAnn, attempt: 1, providerId: "p1", carried: .direct)
        // joe's push is on its way: taken from the outbox, its outcome not recorded yet.

        try await notifications.withdraw(ids, actor: "ada")

        func delivery(_ id: UUID) throws -> Delivery {
            let rows = try f.deliveries.list(messageId: id)
            #expect(rows.count == 1, "\(rows)")
            return rows[0]
        }
        #expect(try delivery(ids[0]).kind == .withdrawal && delivery(ids[0]).status == .pending)
        #expect(try delivery(ids[0]).attempts == 0 && delivery(ids[0]).dueAt == f.t.clock.now)
        #expect(try delivery(ids[1]).status == .expired && delivery(ids[1]).lastReason == Delivery.forgone)
        try await f.deliveries.delivered(toJoe, attempt: 1, providerId: "p2", carried: .indirect)
        #expect(try delivery(ids[1]).kind == .withdrawal && delivery(ids[1]).status == .pending)

        let withdrawal = try #require(try f.deliveries.due(at: f.t.clock.now, limit: 10).first { $0.user == "ann" })
        try await f.deliveries.delivered(withdrawal, attempt: 1, providerId: "p3", carried: .withdrawal)
        #expect(try delivery(ids[0]).status == .delivered && delivery(ids[0]).providerId == "p3")
        // An outcome of the message's own push, late, changes nothing now.
        let head = f.log.head
        try await f.deliveries.delivered(toAnn, attempt: 1, providerId: "p1", carried: .direct)
        #expect(f.log.head == head)

        try await f.log.rebuild([OutboxProjection.name])
        #expect(try delivery(ids[0]).kind == .withdrawal && delivery(ids[0]).status == .delivered)
        #expect(try delivery(ids[1]).kind == .withdrawal && delivery(ids[1]).status == .pending)
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "ann")).map(\.detail)
        #expect(
            audit.last
                == "the withdrawal of message \(ids[0].uuidString.lowercased()) (\"Shift\") delivered to ann's device "
                + "browser through web on attempt 1 (withdrawal, receipt p3)")
    }

    /// Nothing follows a message to a device that no longer takes pushes: one its push reached before the withdrawal,
    /// or one its push reached after it (then recorded as delivered, as any push).
    @Test(arguments: [true, false])
    func aDeviceThatCannotBeReachedGetsNoWithdrawal(reachedBefore: Bool) async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let ids = try await OutboxTests().send(f, to: ["ann"])
        let toAnn = try #require(try f.deliveries.due(at: f.t.clock.now, limit: 10).first)
        if reachedBefore {
            try await f.deliveries.delivered(toAnn, attempt: 1, providerId: "p1", carried: .direct)
            try await Directory(log: f.log).unregister(user: "ann", deviceId: "browser")
            try await Notifications(log: f.log).withdraw(ids)
        } else {
            try await Notifications(log: f.log).withdraw(ids)
            try await Directory(log: f.log).unregister(user: "ann", deviceId: "browser")
            try await f.deliveries.delivered(toAnn, attempt: 1, providerId: "p1", carried: .direct)
        }

        let delivery = try #require(try f.deliveries.list(messageId: ids[0]).first)
        #expect(delivery.kind == .message && delivery.status == .delivered && delivery.providerId == "p1")
        #expect(try f.deliveries.due(at: f.t.clock.now, limit: 10).isEmpty)
    }
}
