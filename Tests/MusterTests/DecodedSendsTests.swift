import EventLogTesting
import Foundation
import MusterWire
import Testing

@testable import EventLog
@testable import Muster

/// A large send's messages are opened, answered and announced to the inboxes' live streams from one decoding of the
/// send: what each needs, without the recipients' list, and who got which message.
@Suite struct DecodedSendsTests {
    /// Ada's roll call to ann and joe, in a log of its own.
    static func rollCall() async throws -> (OutboxTests.Fixture, Notifications, Notifications.SendResult) {
        let f = try await OutboxTests().fixture()
        let notifications = Notifications(log: f.log)
        do {
            let roll = try await notifications.send(
                to: ["ann", "joe"], title: "Roll call", body: "In?", payload: colourPayload, actor: "ada")
            return (f, notifications, roll)
        } catch {
            f.t.directory.remove()
            throw error
        }
    }

    @Test func aSendIsKeptWithoutItsRecipientsAndEachSendIsItsOwn() async throws {
        let (f, notifications, roll) = try await Self.rollCall()
        defer { f.t.directory.remove() }
        let other = try await notifications.send(to: ["joe"], title: "Other", body: "", payload: colourPayload)
        let decoded = DecodedSends()
        let events = try f.log.read { reader in
            try [roll.sendId, other.sendId].map { id in
                try #require(try reader.event(at: reader.position(ofEventId: id)!))
            }
        }
        for _ in 0..<2 {
            let sent = try #require(try decoded.send(events[0])).sent
            var expected = try #require(try PayloadSent.decode(events[0]))
            #expect(expected.recipients.map(\.user) == ["ann", "joe"])
            expected.recipients = []
            #expect(sent == expected, "the send as decoded, its recipients left out")
        }
        #expect(try decoded.send(events[1])?.sent.title == "Other", "another send is not the first one kept")
        #expect(
            try decoded.send(events[0])?.direct == JSONValue(json: colourPayload),
            "a direct payload is parsed once for all the send's messages")
        // What an inbox's live stream asks of a send: the user's message in it.
        for (user, id) in zip(["ann", "joe"], roll.messageIds) {
            let copy = try #require(try decoded.message(of: user, in: events[0]))
            #expect(copy.messageId == id && copy.send.sent.title == "Roll call" && copy.send.sent.recipients.isEmpty)
        }
        #expect(try decoded.message(of: "ann", in: events[1]) == nil, "the other send was joe's alone")

        let answer = try await notifications.respond(
            messageId: roll.messageIds[0], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "ann", deviceId: "d"))
        let response = try f.log.read { try $0.event(at: $0.head) }
        #expect(try decoded.send(try #require(response)) == nil, "a response is no send")
        #expect(try decoded.message(of: "ann", in: try #require(response)) == nil)
        #expect(answer.response.responseTopic == "/a/b/c")
        #expect(try notifications.message(id: roll.messageIds[1], user: "joe")?.message.title == "Roll call")
    }

    @Test func aKeptSendIsFoundByItsEventIdWithoutItsBodyBeingReadAgain() async throws {
        let (f, _, roll) = try await Self.rollCall()
        defer { f.t.directory.remove() }
        let position = try #require(try f.log.read { try $0.position(ofEventId: roll.sendId) })
        let recordedAt = try f.log.read { try #require(try $0.event(at: position)).recordedAt }
        let decoded = DecodedSends()
        let first = try #require(try f.log.read { try decoded.send(at: position, in: $0) })
        #expect(first.sent.title == "Roll call" && first.sent.recipients.isEmpty && first.recordedAt == recordedAt)
        let recipients = try f.log.read { try decoded.recipients(at: position, in: $0) }
        #expect(recipients?.map(\.user) == ["ann", "joe"] && recipients?.map(\.messageId) == roll.messageIds)

        // The send's body damaged: a checked read refuses it, while the send kept is found from the envelope's head.
        let events = f.log.core.tables.events
        try await f.log.perform { scope in
            var value = try #require(try scope.txn.get(events, Key.position(position)))
            value[value.count - 7] ^= 0x20
            try scope.txn.put(events, Key.position(position), value)
        }
        #expect(throws: StoreError.self) { try f.log.read { try $0.event(at: position) } }
        let kept = try f.log.read { try decoded.send(at: position, in: $0) }
        #expect(kept?.sent.title == "Roll call" && kept?.recordedAt == recordedAt)
        #expect(try f.log.read { try decoded.recipients(at: position, in: $0) }?.map(\.user) == ["ann", "joe"])
        #expect(throws: StoreError.self, "a send not kept yet is read checked") {
            try f.log.read { try DecodedSends().send(at: position, in: $0) }
        }

        let (first1, head) = try f.log.read { (try $0.event(at: 1), $0.head) }
        #expect(first1?.type != PayloadSent.type)
        #expect(try f.log.read { try decoded.send(at: 1, in: $0) } == nil, "another event is no send")
        #expect(try f.log.read { try decoded.send(at: head + 1, in: $0) } == nil, "past the head")
    }

    @Test func theSendsKeptHoldAtMostTheirBudgetOfPayloadBytesTheLatestAlways() async throws {
        let (f, notifications, roll) = try await Self.rollCall()
        defer { f.t.directory.remove() }
        let other = try await notifications.send(to: ["joe"], title: "Other", body: "", payload: colourPayload)
        let (rollAt, otherAt) = try f.log.read {
            (try $0.position(ofEventId: roll.sendId)!, try $0.position(ofEventId: other.sendId)!)
        }
        // Room for one payload, or for one send: keeping the other send lets the roll call go.
        let caches = [DecodedSends(keptPayloadBytes: colourPayload.count), DecodedSends(kept: 1)]
        for decoded in caches {
            _ = try f.log.read { try decoded.send(at: rollAt, in: $0) }
            _ = try f.log.read { try decoded.send(at: otherAt, in: $0) }
        }
        let events = f.log.core.tables.events
        try await f.log.perform { scope in
            for position in [rollAt, otherAt] {
                var value = try #require(try scope.txn.get(events, Key.position(position)))
                value[value.count - 7] ^= 0x20
                try scope.txn.put(events, Key.position(position), value)
            }
        }
        for decoded in caches {
            #expect(try f.log.read { try decoded.send(at: otherAt, in: $0) }?.sent.title == "Other", "the latest stays")
            #expect(throws: StoreError.self, "the roll call was let go, so it is read again") {
                try f.log.read { try decoded.send(at: rollAt, in: $0) }
            }
        }
        let roomy = DecodedSends()
        #expect(throws: StoreError.self, "a send not kept is read checked") {
            try f.log.read { try roomy.send(at: otherAt, in: $0) }
        }
    }
}
