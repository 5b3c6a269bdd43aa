import Foundation
import MusterWire
import Testing

@testable import MusterClient

/// The whole loop through a real server over real sockets, driven by the Swift client SDK as an app
/// would: log in, register devices, receive a form live, answer it, see the answer on its topic.
@Suite struct ClientJourneyTests {
    /// ada (administrator) made by the CLI; joe and ann created over HTTP; group ops by the CLI while
    /// the server runs.
    func server() async throws -> (ServerProcess, MusterClient) {
        let server = try await ServerProcess()
        let ada = MusterClient(serverURL: server.base)
        let session = await ada.authWithInternal(username: "ada", password: "secret-ada")
        try #require(session.authValid, "\(session.errorStr)")
        _ = try await ada.createInternalUser(username: "joe", password: "secret-joe", firstName: "Joe")
        _ = try await ada.createInternalUser(username: "ann", password: "secret-ann")
        let group = try await MusterProcess.run(["groups", "add", "ops", "--members", "joe,ann"] + server.data)
        try #require(group.status == 0, "\(group)")
        return (server, ada)
    }

    static let payload = #"""
        {"responseTopic": "/plant/north/valves", "fields": [
          {"id": "open", "type": "radioButtons", "label": "Open valve 7?", "values": ["yes", "no"]},
          {"id": "note", "type": "inputString", "label": "Why?", "optional": true}],
         "state": {"valve": 7}}
        """#

    @Test func aFormSentToAGroupReachesTheLiveInboxIsAnsweredOnceAndTheAnswerIsPublished() async throws {
        let (server, ada) = try await server()
        let phone = MusterClient(serverURL: server.base)
        let tablet = MusterClient(serverURL: server.base)
        #expect(await phone.authWithInternal(username: "joe", password: "secret-joe").authValid)
        #expect(await tablet.authWithInternal(username: "joe", password: "secret-joe").authValid)
        let apnsToken = MusterClient.convertAPNSToken(Data([0xDE, 0xAD, 0xBE, 0xEF]))
        _ = try await phone.registerDevice(
            deviceId: "joe-phone", deviceName: "Joe's phone", platform: .apns, token: apnsToken)
        _ = try await tablet.registerDevice(
            deviceId: "joe-tablet", deviceName: "Joe's tablet", platform: .fcm, token: "fcm-1")
        #expect(try await phone.devices().map(\.deviceId).sorted() == ["joe-phone", "joe-tablet"])
        #expect(try await phone.devices().first { $0.deviceId == "joe-phone" }?.token == "deadbeef")

        // Both devices and a rule listen from the log's current head: whenever their connections
        // open, they start right after it and miss nothing sent from now on.
        let head = try #require(try await server.send("GET", "healthz").object["head"] as? Int)
        var phoneInbox = phone.inboxUpdates(after: String(head)).makeAsyncIterator()
        var tabletInbox = tablet.inboxUpdates(after: String(head)).makeAsyncIterator()
        var valves = ada.topic("/plant/+/valves", after: String(head)).makeAsyncIterator()

        let sent = try await ada.send(
            title: "Valve 7", body: "Pressure high", payload: try JSONValue(json: Data(Self.payload.utf8)),
            to: Recipients(groups: ["ops"]))
        #expect(sent.recipients.sorted() == ["ann", "joe"])

        let arrived = try #require(try await phoneInbox.next())
        guard case .message(let item) = arrived.event else {
            Issue.record("expected a message, got \(arrived.event)")
            return
        }
        #expect(item.title == "Valve 7")
        guard case .message(let sameItem) = try #require(try await tabletInbox.next()).event else {
            Issue.record("the tablet did not get the message")
            return
        }
        #expect(sameItem.messageId == item.messageId)

        let message = try await phone.message(id: item.messageId)
        #expect(message.payload["fields"]?[0]?["label"]?.stringValue == "Open valve 7?")
        let answer = try await phone.respond(
            messageId: item.messageId, deviceId: "joe-phone", values: ["open": .string("yes")])
        #expect(answer.username == "joe")
        #expect(answer.deviceName == "Joe's phone")
        #expect(answer.state?["valve"]?.intValue == 7)

        // The rule's topic stream receives the response object.
        let published = try #require(try await valves.next())
        guard case .response(let response) = published.event else {
            Issue.record("expected a response on the topic, got \(published.event)")
            return
        }
        #expect(response == answer)

        // Both devices see it leave the inbox.
        #expect(try #require(try await phoneInbox.next()).event == .answered(messageId: item.messageId))
        #expect(try #require(try await tabletInbox.next()).event == .answered(messageId: item.messageId))
        #expect(try await tablet.inbox().isEmpty)

        // A second answer, from the other device, is a conflict.
        do {
            _ = try await tablet.respond(
                messageId: item.messageId, deviceId: "joe-tablet", values: ["open": .string("no")])
            Issue.record("a second answer was accepted")
        } catch {
            #expect(error.statusCode == 409)
        }

        // Logging out revokes the token on the server.
        let token = try #require(phone.tokens?.accessToken)
        #expect(await phone.logout().succeeded)
        let after = try await server.send("GET", "api/v1/inbox", token: token)
        #expect(after.status == 401)
        #expect(after.errorCode == "token_revoked")
        #expect(await tablet.verifyAuthToken().authValid, "the other device's session is untouched")
        #expect(await server.stop() == 0)
    }

    @Test func aMessageWithdrawnLeavesTheLiveInboxAndCannotBeAnswered() async throws {
        let (server, ada) = try await server()
        let phone = MusterClient(serverURL: server.base)
        #expect(await phone.authWithInternal(username: "joe", password: "secret-joe").authValid)
        let head = try #require(try await server.send("GET", "healthz").object["head"] as? Int)
        var inbox = phone.inboxUpdates(after: String(head)).makeAsyncIterator()
        let sent = try await ada.send(
            title: "Valve 7", body: "Sent to the wrong group", payload: try JSONValue(json: Data(Self.payload.utf8)),
            to: Recipients(groups: ["ops"]))
        guard case .message(let item) = try #require(try await inbox.next()).event else {
            Issue.record("joe's phone did not get the message")
            return
        }

        for id in sent.messageIds { try await ada.withdrawMessage(id: id) }

        #expect(try #require(try await inbox.next()).event == .withdrawn(messageId: item.messageId))
        #expect(try await phone.inbox().isEmpty)
        do {
            _ = try await phone.respond(
                messageId: item.messageId, deviceId: "joe-phone", values: ["open": .string("yes")])
            Issue.record("a withdrawn message was answered")
        } catch {
            #expect(error.statusCode == 404 && error.message.contains("withdrawn"), "\(error)")
        }
        do {
            try await ada.withdrawMessage(id: item.messageId)
            Issue.record("a message was withdrawn twice")
        } catch {
            #expect(error.statusCode == 409, "\(error)")
        }
        do {
            try await phone.withdrawMessage(id: item.messageId)
            Issue.record("joe withdrew a message")
        } catch {
            #expect(error.statusCode == 403, "\(error)")
        }
        let audit = try await MusterProcess.run(["audit", "--user", "joe", "--json"] + server.data)
        #expect(audit.stdout.contains("to joe withdrawn by ada"), "\(audit)")
        #expect(await server.stop() == 0)
    }

    @Test func aStreamResumedAfterTheServerRestartsMissesNothing() async throws {
        let (server, ada) = try await server()
        let joe = MusterClient(serverURL: server.base)
        #expect(await joe.authWithInternal(username: "joe", password: "secret-joe").authValid)
        let first = try await ada.send(
            title: "One", body: "B", payload: try JSONValue(json: Data(Self.payload.utf8)),
            to: Recipients(users: ["joe"]))
        var updates = joe.inboxUpdates(after: "0").makeAsyncIterator()
        let one = try #require(try await updates.next())
        #expect(one.event == .message(try await joe.inbox()[0]))
        #expect(try await joe.inbox().map(\.messageId) == first.messageIds)

        // The server restarts; a message is sent while the client is away; resuming from the
        // position it saw last replays it.
        try await server.restart()
        let second = try await ada.send(
            title: "Two", body: "B", payload: try JSONValue(json: Data(Self.payload.utf8)),
            to: Recipients(users: ["joe"]))
        var resumed = joe.inboxUpdates(after: one.position).makeAsyncIterator()
        guard case .message(let item) = try #require(try await resumed.next()).event else {
            Issue.record("expected the second message")
            return
        }
        #expect(item.messageId == second.messageIds[0])
        #expect(await server.stop() == 0)
    }

    /// A consumer slower than the server — a long backlog sent at once — holds at most the stream's buffer, not the
    /// backlog: the stream stops reading when the buffer is full, and goes on after the last event it buffered once
    /// half is taken. Every event arrives once, in order.
    @Test func aSlowConsumerOfALongBacklogHoldsAtMostItsBufferAndMissesNothing() async throws {
        let (server, ada) = try await server()
        let head = try #require(try await server.send("GET", "healthz").object["head"] as? Int)
        let count = 600
        for n in 0..<count { _ = try await ada.publish(["n": .number(Double(n))], to: "/backlog/\(n % 3)") }

        let stream = ada.liveStream(
            path: ["topics", "backlog", "#"], after: String(head), bufferLimit: 50, decode: TopicEvent.decode)
        var events = stream.makeAsyncIterator()
        var received = [try #require(try await events.next()).event]
        let buffer = try #require(events.buffer)
        let deadline = ContinuousClock.now + .seconds(30)
        while !buffer.producerWaits && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(buffer.producerWaits, "the stream did not stop reading with its buffer full")
        #expect(buffer.largest == 50)

        while received.count < count, let event = try await events.next() { received.append(event.event) }
        #expect(received == (0..<count).map { TopicEvent.publish(["n": .number(Double($0))]) })
        #expect(buffer.largest == 50)
        #expect(await server.stop() == 0)
    }

    @Test func badInputThroughTheClientIsOneErrorNamingTheField() async throws {
        let (server, ada) = try await server()
        let joe = MusterClient(serverURL: server.base)
        let wrong = await joe.authWithInternal(username: "joe", password: "nope")
        #expect(!wrong.authValid)
        #expect(wrong.statusCode == 401)
        #expect(!wrong.errorStr.isEmpty)
        #expect(await joe.authWithInternal(username: "joe", password: "secret-joe").authValid)
        let sent = try await ada.send(
            title: "T", body: "B", payload: try JSONValue(json: Data(Self.payload.utf8)), to: Recipients(users: ["joe"])
        )
        do {
            _ = try await joe.respond(messageId: sent.messageIds[0], deviceId: "p", values: ["open": .string("maybe")])
            Issue.record("an invalid value was accepted")
        } catch {
            #expect(error.statusCode == 422)
            #expect(error.fields.map(\.field) == ["open"])
        }
        let payload = try JSONValue(json: Data(Self.payload.utf8))
        do {
            _ = try await joe.send(title: "T", body: "B", payload: payload, to: Recipients(users: ["ann"]))
            Issue.record("a user could send")
        } catch {
            #expect(error.statusCode == 403)
        }
        #expect(await server.stop() == 0)
    }
}
