import EventLog
import EventLogTesting
import Forms
import Foundation
import Muster
import Testing

@Suite struct AuditTests {
    @Test func aNodeBecomingTheNamespacesPrimaryIsShownWithWhereItServesButNotInAUsersAudit() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        try await Directory(log: log).addUser("joe", password: nil)
        // As `muster serve --cluster` appends it when a node takes the namespace's lease.
        try await log.append(
            AppendRequest(
                stream: "cluster",
                events: [
                    NewEvent(
                        type: "PrimaryChanged", body: .json(#"{"node":"b","url":"http://10.0.0.2:8080"}"#),
                        actor: "b")
                ]))
        let entries = try Audit(log: log).entries()
        #expect(entries.map(\.what) == [.userCreated, .primaryChanged])
        #expect(entries.last?.detail == "node b (http://10.0.0.2:8080) became the primary of namespace default")
        #expect(entries.last?.actor == "b" && entries.last?.user == nil)
        #expect(try Audit(log: log).entries(Audit.Filter(user: "joe")).map(\.what) == [.userCreated])
    }

    @Test func aUsersAuditShowsSendsResponsesAndDirectoryChangesInOrder() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        let notifications = Notifications(log: log)
        for name in ["joe", "ann", "kim"] { try await directory.addUser(name, password: nil) }
        try await directory.defineGroup("ops", members: ["joe", "ann"])
        try await directory.register(
            PushTargetRegistered(user: "joe", deviceId: "phone", deviceName: "Joe's phone", platform: .fcm, token: "t"))
        let toOps = try await notifications.send(
            groups: ["ops"], title: "Colour", body: "Pick", payload: colourPayload, actor: "kim")
        let byJoe = try await notifications.send(
            to: ["kim"], title: "Ask", body: "B", payload: colourPayload, actor: "joe")
        _ = try await notifications.send(to: ["ann"], title: "Not joe's", body: "B", payload: colourPayload)
        t.clock.advance(seconds: 3600)
        _ = try await notifications.respond(
            messageId: toOps.messageIds[0], values: Data(#"{"simpleDropList":"Red"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "phone"))
        try await directory.defineGroup("ops", members: ["ann"])

        let audit = Audit(log: log)
        let joe = try audit.entries(Audit.Filter(user: "joe"))
        #expect(
            joe.map(\.what) == [
                .userCreated, .groupJoined, .deviceRegistered, .payloadSent, .payloadSent, .responseReceived,
                .groupLeft,
            ])
        #expect(joe.map(\.position) == joe.map(\.position).sorted())
        let received = joe[3]
        #expect(received.messageId == toOps.messageIds[0])
        #expect(received.title == "Colour")
        #expect(received.recipients == ["joe", "ann"])
        #expect(received.actor == "kim")
        #expect(received.detail.contains("kim sent \"Colour\""))
        let sentByJoe = joe[4]
        #expect(sentByJoe.messageId == nil)
        #expect(sentByJoe.recipients == ["kim"] && sentByJoe.actor == "joe")
        #expect(byJoe.recipients == ["kim"])
        let response = joe[5]
        #expect(response.messageId == toOps.messageIds[0])
        #expect(response.deviceId == "phone")
        #expect(response.submitValue == 0)
        #expect(response.title == "Colour")
        #expect(joe[6].group == "ops" && joe[6].detail == "joe left group ops")

        let phone = try audit.entries(Audit.Filter(user: "joe", deviceId: "phone"))
        #expect(phone.map(\.what) == [.deviceRegistered, .responseReceived])
        #expect(try audit.entries(Audit.Filter(user: "ann", deviceId: "phone")).isEmpty)

        let since = Date(timeIntervalSince1970: Double(t.clock.now) / 1_000_000 - 60)
        let recent = try audit.entries(Audit.Filter(user: "joe", since: since))
        #expect(recent.map(\.what) == [.responseReceived, .groupLeft])

        let everything = try audit.entries()
        #expect(everything.filter { $0.what == .payloadSent }.count == 3)
        #expect(everything.filter { $0.what == .userCreated }.count == 3)
        #expect(try audit.entries(Audit.Filter(namespace: "elsewhere")).isEmpty)
        let json = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
        #expect(json.contains(#""what":"responseReceived""#))
        #expect(json.contains(#""time":"2026-01-01T01:00:00"#))
    }
}
