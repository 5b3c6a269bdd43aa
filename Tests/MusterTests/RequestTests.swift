import EventLog
import EventLogTesting
import Forms
import Foundation
import MusterWire
import Testing

@testable import Muster

/// A user-initiated report: what broke and how bad it is.
let reportFields = Data(
    #"""
    {"fields": [
        {"id": "what", "type": "inputString", "label": "What broke?"},
        {"id": "severity", "type": "inputInteger", "label": "Severity", "minValue": 1, "maxValue": 5}
    ]}
    """#.utf8)

@Suite struct RequestTests {
    struct Fixture {
        let t: TestLog
        let log: EventLog
        let requests: Requests
        let notifications: Notifications
    }

    func fixture() async throws -> Fixture {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        try await Directory(log: log).addUser("joe", password: nil)
        return Fixture(t: t, log: log, requests: Requests(log: log), notifications: Notifications(log: log))
    }

    @Test func putAndListTemplatesByName() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        #expect(try f.requests.list().isEmpty)
        try await f.requests.put(
            "report", title: "Report a fault", body: "Tell us", responseTopic: "/faults/new", payload: reportFields)
        try await f.requests.put(
            "hello", title: "Hello", body: "Say hi", responseTopic: "/hi", payload: Data(#"{"fields":[]}"#.utf8))
        try await f.requests.put(
            "hello", title: "Hello again", body: "Say hi", responseTopic: "/hi", payload: Data(#"{"fields":[]}"#.utf8))
        let list = try f.requests.list()
        #expect(list.map(\.name) == ["hello", "report"])
        #expect(list[0].title == "Hello again")
        let report = try #require(try f.requests.get("report"))
        #expect(report.responseTopic == "/faults/new")
        #expect(report.body == "Tell us")
        let payload = try JSONValue(json: Data(report.payload)).objectValue
        #expect(payload?["responseTopic"] == .string("/faults/new"))
        #expect(payload?["fields"]?.arrayValue?.count == 2)
    }

    @Test func aRemovedTemplateIsNoLongerListedOrAnswered() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.requests.put(
            "report", title: "Report", body: "Tell us", responseTopic: "/faults/new", payload: reportFields)
        let values = Data(#"{"what":"pump 3","severity":2}"#.utf8)
        _ = try await f.notifications.respond(
            toRequest: "report", values: values, as: Respondent(user: "joe", deviceId: "d"))

        try await f.requests.remove("report", actor: "ada")

        #expect(try f.requests.list().isEmpty)
        let head = f.log.head
        for _ in 0..<2 {
            await #expect {
                _ = try await f.notifications.respond(
                    toRequest: "report", values: values, as: Respondent(user: "joe", deviceId: "d"))
            } throws: { ($0 as? MusterError)?.code == .notFound }
            await #expect {
                try await f.requests.remove("report")
            } throws: { ($0 as? MusterError)?.code == .notFound }
        }
        #expect(f.log.head == head)
        #expect(try f.log.events(EventQuery(type: ResponseReceived.type)).count == 1, "the answer given stays")
    }

    @Test func anAnswerRepeatedWithItsResponseIdIsReturnedAsRecordedAndWritesNothing() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.requests.put(
            "report", title: "Report", body: "Tell us", responseTopic: "/faults/new", payload: reportFields)
        let responseId = UUID()
        let values = Data(#"{"what":"pump 3","severity":2}"#.utf8)
        let first = try await f.notifications.respond(
            toRequest: "report", values: values, as: Respondent(user: "joe", deviceId: "web-1", responseId: responseId))
        #expect(!first.isRepeat)
        let head = f.log.head
        let again = try await f.notifications.respond(
            toRequest: "report", values: values, as: Respondent(user: "joe", deviceId: "web-1", responseId: responseId))
        #expect(again.isRepeat)
        #expect(again.json == first.json)
        #expect(again.messageId == first.messageId)
        #expect(again.position == first.position)
        #expect(f.log.head == head)
        let event = try #require(try f.log.read { try $0.event(at: first.position) })
        #expect(event.id == responseId, "the response id is the event's id")

        // A message: answered once with the id, the repeat returns it; another id is the usual conflict.
        let sent = try await f.notifications.send(
            to: ["joe"], title: "Fault", body: "Which?", payload: Data(#"{"responseTopic":"/f","fields":[]}"#.utf8))
        let messageId = try #require(sent.messageIds.first)
        let messageAnswerId = UUID()
        let answered = try await f.notifications.respond(
            messageId: messageId, values: Data("{}".utf8),
            as: Respondent(user: "joe", deviceId: "web-1", responseId: messageAnswerId))
        let repeated = try await f.notifications.respond(
            messageId: messageId, values: Data("{}".utf8),
            as: Respondent(user: "joe", deviceId: "web-1", responseId: messageAnswerId))
        #expect(repeated.isRepeat && repeated.json == answered.json)
        let conflict = await #expect(throws: MusterError.self) {
            try await f.notifications.respond(
                messageId: messageId, values: Data("{}".utf8),
                as: Respondent(user: "joe", deviceId: "web-1", responseId: UUID()))
        }
        #expect(conflict?.code == .conflict)
        // The request's id does not answer the message, nor the message's the request.
        let misused = await #expect(throws: MusterError.self) {
            try await f.notifications.respond(
                toRequest: "report", values: values,
                as: Respondent(user: "joe", deviceId: "web-1", responseId: messageAnswerId))
        }
        #expect(misused?.field == "responseId")
    }

    @Test func anInvalidTemplateIsRefusedNamingFieldsAndNothingIsWritten() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.requests.put(
                "bad", title: "T", body: "B", responseTopic: "no-slash",
                payload: Data(#"{"fields":[{"type":"inputInteger","label":"n","minValue":5,"maxValue":1}]}"#.utf8))
        }
        let fields = rejection?.problems.map(\.field) ?? []
        #expect(fields.contains("payload.responseTopic"))
        #expect(fields.contains { $0.contains("fields[0]") })
        #expect(f.log.head == head)
        #expect(try f.requests.list().isEmpty)
    }

    @Test func answeringARequestAppendsOneEventThatAListenerOnItsTopicReceives() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.requests.put(
            "report", title: "Report a fault", body: "Tell us", responseTopic: "/faults/new", payload: reportFields)
        let listener = f.notifications.listen(try TopicFilter("/faults/#"))
        let head = f.log.head
        let answer = try await f.notifications.respond(
            toRequest: "report", values: Data(#"{"what":"pump 3","severity":4}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d1", deviceName: "Pixel"))
        #expect(f.log.head == head + 1)
        #expect(answer.response.responseTopic == "/faults/new")
        #expect(answer.response.username == "joe")
        #expect(answer.response.values["severity"] == .number(4))
        let last = f.log.head
        let event = try #require(try f.log.read { try $0.event(at: last) })
        let received = try #require(try ResponseReceived.decode(event))
        #expect(received.request == "report")
        #expect(received.messageId == answer.messageId)
        #expect(received.responseTopic == "/faults/new")
        #expect(
            String(decoding: try #require(EventCatalogue.json(event)), as: UTF8.self).contains(#""request":"report""#))
        var iterator = listener.makeAsyncIterator()
        let published = try #require(try await iterator.next())
        #expect(published.json == answer.json)
        #expect(published.kind == .response)
        #expect(published.position == last)
        // Nothing entered any inbox.
        #expect(try f.notifications.inbox(user: "joe").isEmpty)
        // A second answer is another submission, not a conflict.
        let second = try await f.notifications.respond(
            toRequest: "report", values: Data(#"{"what":"pump 4","severity":1}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d1"))
        #expect(second.messageId != answer.messageId)
    }

    @Test func invalidValuesOrUnknownNamesAreRefusedAndNothingIsWritten() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.requests.put(
            "report", title: "Report a fault", body: "Tell us", responseTopic: "/faults/new", payload: reportFields)
        let head = f.log.head
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.notifications.respond(
                toRequest: "report", values: Data(#"{"severity":9}"#.utf8), as: Respondent(user: "joe", deviceId: "d1"))
        }
        #expect(Set(rejection?.problems.map(\.field) ?? []) == ["what", "severity"])
        let unknown = await #expect(throws: MusterError.self) {
            try await f.notifications.respond(
                toRequest: "nope", values: Data("{}".utf8), as: Respondent(user: "joe", deviceId: "d1"))
        }
        #expect(unknown?.code == .notFound)
        let nobody = await #expect(throws: MusterError.self) {
            try await f.notifications.respond(
                toRequest: "report", values: Data(#"{"what":"x","severity":1}"#.utf8),
                as: Respondent(user: "zed", deviceId: "d1"))
        }
        #expect(nobody?.code == .notFound)
        #expect(f.log.head == head)
    }

    @Test func oldResponseBodiesDecodeWithoutARequest() throws {
        let plain = ResponseReceived(
            messageId: UUID(), user: "joe", deviceId: "d", deviceName: "d", submitValue: 0, response: Array("{}".utf8),
            responseTopic: "/a")
        var w = ByteWriter()
        plain.encode(into: &w)
        let decoded = try w.bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return try ResponseReceived(from: &r)
        }
        #expect(decoded == plain)
        var tagged = plain
        tagged.request = "report"
        var w2 = ByteWriter()
        tagged.encode(into: &w2)
        #expect(Array(w2.bytes.prefix(w.bytes.count)) == w.bytes)
        let decodedTagged = try w2.bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return try ResponseReceived(from: &r)
        }
        #expect(decodedTagged.request == "report")
    }
}
