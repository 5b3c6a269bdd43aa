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
}
