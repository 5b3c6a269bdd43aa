import EventLog
import EventLogTesting
import Foundation
import MusterWire
import Testing

@testable import Muster

/// Where a send stands for its sender: how many of its messages were answered, withdrawn, or still wait, and whose.
@Suite struct SendOverviewTests {
    @Test func aSendSaysWhoAnsweredWhoWasWithdrawnAndWhoStillHasNot() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let directory = Directory(log: f.log)
        for name in ["kim", "lou"] { try await directory.addUser(name, password: nil) }
        let notifications = Notifications(log: f.log)
        let earlier = try await notifications.send(
            to: ["joe"], title: "Earlier", body: "", payload: colourPayload, actor: "ada")
        let roll = try await notifications.send(
            to: ["ann", "joe", "kim", "lou"], title: "Roll call", body: "Are you in?", payload: colourPayload,
            actor: "ada")
        _ = try await notifications.respond(
            messageId: roll.messageIds[1], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d"))
        try await notifications.withdraw([roll.messageIds[0]], actor: "ada")
        try await directory.removeUser("kim")

        let listed = try notifications.sends()
        #expect(listed.map(\.sendId) == [roll.sendId, earlier.sendId], "newest first")
        let overview = try #require(listed.first)
        #expect(overview.title == "Roll call" && overview.body == "Are you in?" && overview.sender == "ada")
        #expect(overview.recipients == 4 && overview.answered == 1 && overview.withdrawn == 2 && overview.pending == 1)
        #expect(overview.messages == nil, "a list says how many, not whose")
        #expect(try notifications.sends(limit: 1).map(\.sendId) == [roll.sendId])

        let shown = try #require(try notifications.send(roll.sendId))
        #expect(shown.messages?.map(\.user) == ["ann", "joe", "kim", "lou"])
        #expect(shown.messages?.map(\.messageId) == roll.messageIds)
        #expect(shown.messages?.map(\.state) == [.withdrawn, .answered, .withdrawn, .pending])
        #expect(shown.answered == 1 && shown.pending == 1)

        // The same from the events alone.
        try await f.log.rebuild([InboxProjection.name])
        #expect(try notifications.send(roll.sendId) == shown)
    }

    @Test func anUnknownSendOrOneOfAnotherNamespaceIsNoneAndABadLimitIsRefused() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let notifications = Notifications(log: f.log)
        let sent = try await notifications.send(to: ["ann"], title: "T", body: "", payload: colourPayload)
        #expect(try notifications.send(sent.sendId, namespace: "other") == nil)
        #expect(try notifications.send(UUID()) == nil)
        #expect(try notifications.send(sent.messageIds[0]) == nil, "a message's id is not its send's")
        #expect(try notifications.sends(namespace: "other").isEmpty)
        for limit in [0, 1001] {
            #expect {
                try notifications.sends(limit: limit)
            } throws: { ($0 as? MusterError)?.field == "limit" }
        }
    }

    @Test func aLargeSendIsShownAPageAtATimeAndOnlyTheMessagesInTheStateAsked() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        for name in ["kim", "lou", "max"] { try await Directory(log: f.log).addUser(name, password: nil) }
        let notifications = Notifications(log: f.log)
        let roll = try await notifications.send(
            to: ["ann", "joe", "kim", "lou", "max"], title: "Roll call", body: "", payload: colourPayload)
        _ = try await notifications.respond(
            messageId: roll.messageIds[1], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d"))
        try await notifications.withdraw([roll.messageIds[3]])

        // Pages of two: the send's order, and where the next starts; none after the last.
        var users: [[String]] = []
        var from: Int? = 0
        while let start = from {
            let page = try #require(try notifications.send(roll.sendId, from: start, limit: 2))
            #expect(page.recipients == 5 && page.pending == 3, "each page has the whole send's counts")
            users.append(page.messages?.map(\.user) ?? [])
            from = page.nextFrom
        }
        #expect(users == [["ann", "joe"], ["kim", "lou"], ["max"]])

        // Only the pending ones: a page ends where the next pending one is, and the last page has no next.
        let first = try #require(try notifications.send(roll.sendId, state: .pending, limit: 2))
        #expect(first.messages?.map(\.user) == ["ann", "kim"])
        #expect(first.nextFrom == 4, "max, the third pending one, is the next page's first")
        let last = try #require(try notifications.send(roll.sendId, state: .pending, from: 4, limit: 2))
        #expect(last.messages?.map(\.user) == ["max"] && last.nextFrom == nil)
        let exact = try #require(try notifications.send(roll.sendId, state: .pending, limit: 3))
        #expect(exact.messages?.count == 3 && exact.nextFrom == nil, "no empty page after one that ends the send")
        #expect(try notifications.send(roll.sendId, state: .answered)?.messages?.map(\.user) == ["joe"])
        #expect(try notifications.send(roll.sendId, state: .withdrawn)?.messages?.map(\.user) == ["lou"])
        #expect(try notifications.send(roll.sendId, from: 5)?.messages == [], "from past the end: none")

        for (from, limit, field) in [(-1, 10, "from"), (0, 0, "limit"), (0, 10_001, "limit")] {
            #expect {
                try notifications.send(roll.sendId, from: from, limit: limit)
            } throws: { ($0 as? MusterError)?.field == field }
        }
    }

    @Test func theSendsOlderThanOneListedAreTheNextPage() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        let notifications = Notifications(log: f.log)
        var sent: [UUID] = []
        for title in ["First", "Second", "Third"] {
            sent.append(
                try await notifications.send(to: ["ann"], title: title, body: "", payload: colourPayload).sendId)
        }
        let page = try notifications.sends(limit: 2)
        #expect(page.map(\.title) == ["Third", "Second"])
        let next = try notifications.sends(before: try #require(page.last).sendId, limit: 2)
        #expect(next.map(\.title) == ["First"])
        #expect(try notifications.sends(before: sent[0]).isEmpty, "nothing older than the first")
        for unknown in [UUID(), sent[0]] {
            let namespace = unknown == sent[0] ? "other" : Names.defaultNamespace
            #expect {
                try notifications.sends(namespace: namespace, before: unknown)
            } throws: { error in
                let error = error as? MusterError
                return error?.code == .invalidArgument && error?.field == "before"
            }
        }
    }

    @Test func withdrawingTheRestOfASendTakesBackOnlyWhatIsPendingInOneAppend() async throws {
        let f = try await OutboxTests().fixture()
        defer { f.t.directory.remove() }
        for name in ["kim", "lou"] { try await Directory(log: f.log).addUser(name, password: nil) }
        let notifications = Notifications(log: f.log)
        let roll = try await notifications.send(
            to: ["ann", "joe", "kim", "lou"], title: "Roll call", body: "", payload: colourPayload)
        _ = try await notifications.respond(
            messageId: roll.messageIds[1], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d"))
        try await notifications.withdraw([roll.messageIds[2]])

        let head = f.log.head
        #expect(try await notifications.withdrawPending(ofSend: roll.sendId, actor: "ada") == 2)
        #expect(f.log.head == head + 2, "one withdrawal each for ann's and lou's, no more")
        let after = try #require(try notifications.send(roll.sendId))
        #expect(after.messages?.map(\.state) == [.withdrawn, .answered, .withdrawn, .withdrawn])
        #expect(after.answered == 1 && after.withdrawn == 3 && after.pending == 0)
        for user in ["ann", "lou"] { #expect(try notifications.inbox(user: user).isEmpty) }
        let events = try f.log.read { reader in try (head + 1...head + 2).compactMap { try reader.event(at: $0) } }
        #expect(events.map(\.type) == [MessageWithdrawn.type, MessageWithdrawn.type])
        #expect(events.allSatisfy { $0.actor == "ada" })
        await #expect(throws: MusterError.self, "ann's message can no longer be answered") {
            _ = try await notifications.respond(
                messageId: roll.messageIds[0], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
                as: Respondent(user: "ann", deviceId: "d"))
        }

        // Again: nothing is pending, nothing is written; no such send, or another namespace's: none.
        #expect(try await notifications.withdrawPending(ofSend: roll.sendId) == 0)
        #expect(try await notifications.withdrawPending(ofSend: UUID()) == nil)
        #expect(try await notifications.withdrawPending(ofSend: roll.sendId, namespace: "other") == nil)
        #expect(try await notifications.withdrawPending(ofSend: roll.messageIds[0]) == nil, "a message is no send")
        #expect(f.log.head == head + 2, "nothing more was recorded")
    }
}
