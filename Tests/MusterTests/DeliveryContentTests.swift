import EventLog
import EventLogTesting
import Foundation
import MusterWire
import Testing

@testable import Muster

/// What a delivery's push carries, built once per send: the same message and the same notice bytes as building
/// them for each delivery.
@Suite struct DeliveryContentTests {
    /// Users ann and joe, each with a browser; one Web Push source.
    func fixture() async throws -> (TestLog, EventLog) {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        for name in ["ann", "joe"] {
            try await directory.addUser(name, password: nil)
            try await directory.register(
                PushTargetRegistered(user: name, deviceId: "b", deviceName: "Firefox", platform: .web, token: "s"))
        }
        try await PushSources(log: log).configure(
            "web", kind: .webpush, details: [.init("subject", "mailto:ops@example.org")], endpoint: nil,
            secret: Array("vapid private key".utf8))
        return (t, log)
    }

    @Test(arguments: [
        colourPayload, Data(#"{"responseTopic": "/x", "fields": [], "state": {"n": 1.5}}"#.utf8),
        Data(#"{"responseTopic":"/a/b/c","payloadName":"Colour","state":{"n":2}}"#.utf8),
    ])
    func theMessageIsTheOneTheInboxGives(payload: Data) async throws {
        let (t, log) = try await fixture()
        defer { t.directory.remove() }
        try await NamedPayloads(log: log).put("Colour", payload: colourPayload)
        let sent = try await Notifications(log: log).send(to: ["ann", "joe"], title: "T", body: "B", payload: payload)
        let deliveries = Deliveries(log: log)
        for delivery in try deliveries.list() {
            let stored = try #require(try Notifications(log: log).message(id: delivery.messageId, user: delivery.user))
            // Twice: the second from the kept send.
            for _ in 0..<2 { #expect(try deliveries.message(of: delivery) == Message(stored)) }
        }
        #expect(sent.messageIds.count == 2)
    }

    @Test func aNamedPayloadIsResolvedAgainOnEveryDelivery() async throws {
        let (t, log) = try await fixture()
        defer { t.directory.remove() }
        let payloads = NamedPayloads(log: log)
        try await payloads.put("Colour", payload: Data(#"{"responseTopic":"/a","fields":[]}"#.utf8))
        _ = try await Notifications(log: log).send(
            to: ["ann"], title: "T", body: "B", payload: Data(#"{"payloadName":"Colour"}"#.utf8))
        let deliveries = Deliveries(log: log)
        let delivery = try #require(try deliveries.list().first)
        #expect(try deliveries.message(of: delivery).responseTopic == "/a")
        try await payloads.put("Colour", payload: Data(#"{"responseTopic":"/b","fields":[]}"#.utf8))
        #expect(try deliveries.message(of: delivery).responseTopic == "/b")
    }

    @Test func theNoticeIsByteForByteTheEncodedOne() throws {
        let templates = NoticeTemplates()
        let payload = try JSONValue(json: colourPayload)
        let ids = [UUID(), UUID(), UUID(uuidString: "12345678-1234-1234-1234-123456789012")!, UUID()]
        for title in ["Shift", "Café \"now\" / 5\u{2028}"] {
            for id in ids {
                let message = Message(
                    messageId: id, title: title, body: "Can you come?", sentAt: Date(timeIntervalSince1970: 1.5),
                    sender: "ops", source: nil, payload: payload)
                for whole in [true, false] {
                    let expected = try NoticeTemplates.encode(message, whole: whole)
                    #expect(try templates.notice(for: message, whole: whole) == expected)
                }
            }
        }
    }

    @Test func aMessageHoldingItsOwnIdStillEncodesIt() throws {
        let templates = NoticeTemplates()
        let id = UUID()
        let message = Message(
            messageId: id, title: id.uuidString, body: id.uuidString.lowercased(), sentAt: Date(), sender: "ops",
            payload: .object(["id": .string(id.uuidString)]))
        for whole in [true, false] {
            #expect(try templates.notice(for: message, whole: whole) == NoticeTemplates.encode(message, whole: whole))
        }
    }

    @Test func offsetsAreEveryPlace() {
        #expect(NoticeTemplates.offsets(of: Array("ab".utf8), in: Array("xabab".utf8)) == [1, 3])
        #expect(NoticeTemplates.offsets(of: Array("abc".utf8), in: Array("ab".utf8)).isEmpty)
    }
}
