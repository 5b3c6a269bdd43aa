import EventLog
import EventLogTesting
import Forms
import Foundation
import Muster
import MusterWire
import Testing

/// The seed's ArsRCSPayload example: the colour form stored under GetMyFavoriteColor.
let namedColour = Data(
    #"""
    {
        "responseTopic": "/a/b/c",
        "fields": [
            {
                 "id": "simpleDropList",
                 "type": "droplist",
                 "label": "Pick your favorite color",
                 "values": ["Red","Green","Blue"],
                 "default": "Blue"
            }
        ]
    }
    """#.utf8)

@Suite struct NamedPayloadTests {
    struct Fixture {
        let t: TestLog
        let log: EventLog
        let payloads: NamedPayloads
        let notifications: Notifications
    }

    func fixture() async throws -> Fixture {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        for name in ["joe", "ann"] { try await directory.addUser(name, password: nil) }
        return Fixture(t: t, log: log, payloads: NamedPayloads(log: log), notifications: Notifications(log: log))
    }

    @Test func putGetAndOverrideByName() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        #expect(try f.payloads.get("GetMyFavoriteColor") == nil)
        let first = try await f.payloads.put("GetMyFavoriteColor", payload: namedColour)
        #expect(first.replaced == false)
        #expect(try f.payloads.get("GetMyFavoriteColor") == namedColour)
        let other = Data(#"{"responseTopic":"/x/y","fields":[]}"#.utf8)
        let second = try await f.payloads.put("GetMyFavoriteColor", payload: other)
        #expect(second.replaced == true)
        #expect(try f.payloads.get("GetMyFavoriteColor") == other)
        #expect(try f.payloads.get("GetMyFavoriteColor", namespace: "elsewhere") == nil)
        let stored = try f.log.events(EventQuery(type: NamedPayloadStored.type))
        #expect(stored.count == 2)
        let json = String(decoding: try #require(EventCatalogue.json(stored[0])), as: UTF8.self)
        #expect(json.contains(#""name":"GetMyFavoriteColor""#))
        #expect(json.contains(#""simpleDropList""#))
    }

    @Test func aRemovedPayloadCannotBeSentButWhatWasSentByItStillShowsIt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.payloads.put("GetMyFavoriteColor", payload: namedColour)
        let byName = Data(#"{"responseTopic":"/d/e","payloadName":"GetMyFavoriteColor"}"#.utf8)
        let sent = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: byName)

        try await f.payloads.remove("GetMyFavoriteColor", actor: "ada")

        #expect(try f.payloads.get("GetMyFavoriteColor") == nil)
        #expect(try f.payloads.list().isEmpty)
        let head = f.log.head
        await #expect {
            try await f.notifications.send(to: ["ann"], title: "T", body: "B", payload: byName)
        } throws: { ($0 as? MusterError)?.message.contains("\"GetMyFavoriteColor\"") == true }
        #expect(f.log.head == head)
        let shown = try #require(try f.notifications.message(id: sent.messageIds[0], user: "joe"))
        #expect(shown.payload.contains(Data("simpleDropList".utf8)), "joe's message still shows the form")
        await #expect {
            try await f.payloads.remove("GetMyFavoriteColor")
        } throws: { ($0 as? MusterError)?.code == .notFound }

        // Stored again, the name is sendable and what was sent by it shows the new one, as a replacement would.
        try await f.payloads.put("GetMyFavoriteColor", payload: Data(#"{"responseTopic":"/x","fields":[]}"#.utf8))
        _ = try await f.notifications.send(to: ["ann"], title: "T", body: "B", payload: byName)
        let now = try #require(try f.notifications.message(id: sent.messageIds[0], user: "joe"))
        #expect(!now.payload.contains(Data("simpleDropList".utf8)))
        let removed = try f.log.events(EventQuery(type: NamedPayloadRemoved.type))
        #expect(removed.map(\.actor) == ["ada"])
    }

    @Test func anInvalidNamedPayloadIsRefusedWithFieldErrorsAndNothingIsWritten() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let bad = Data(
            #"{"responseTopic":"a/b","fields":[{"type":"droplist","label":"L","values":["A"],"default":"Z"}]}"#.utf8)
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.payloads.put("Bad", payload: bad)
        }
        let fields = rejection?.problems.map(\.field) ?? []
        #expect(fields.contains("payload.responseTopic"))
        #expect(fields.contains { $0.contains("fields[0]") })
        #expect(f.log.head == head)
        #expect(try f.payloads.get("Bad") == nil)
    }

    @Test func sendingAnUnknownPayloadNameIsRefusedNamingIt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let head = f.log.head
        let error = await #expect(throws: MusterError.self) {
            try await f.notifications.send(
                to: ["joe"], title: "T", body: "B",
                payload: Data(#"{"responseTopic":"/a/b/c","payloadName":"Nope"}"#.utf8))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\"Nope\"") == true)
        #expect(f.log.head == head)
    }

    @Test func theFetchedMessageIsTheNamedPayloadWithTheSentPropertiesOverIt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.payloads.put("GetMyFavoriteColor", payload: namedColour)
        // Seed 000 "Overriding a common payload": another default for the existing field, one more field, state.
        let indirect = Data(
            #"""
            {"responseTopic": "/d/e", "payloadName": "GetMyFavoriteColor", "state": {"n": 1},
             "fields": [{"id": "simpleDropList", "default": "Red"},
                        {"id": "note", "type": "inputString", "label": "Why?", "optional": true}]}
            """#.utf8)
        let sent = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: indirect)
        let message = try #require(try f.notifications.message(id: sent.messageIds[0], user: "joe"))
        #expect(message.sentPayload == indirect)
        #expect(message.message.responseTopic == "/d/e")
        let resolved = try #require(try JSONValue(json: message.payload).objectValue)
        #expect(resolved["payloadName"] == nil)
        #expect(resolved["responseTopic"] == .string("/d/e"))
        #expect(resolved["state"] == .object(["n": .number(1)]))
        let fields = (resolved["fields"]?.arrayValue ?? []).compactMap { $0.objectValue }
        try #require(fields.count == 2)
        #expect(fields.map { $0["id"] } == [.string("simpleDropList"), .string("note")])
        #expect(fields[0]["default"] == .string("Red"))
        #expect(fields[0]["label"] == .string("Pick your favorite color"))
        #expect(fields[0]["type"] == .string("droplist"))

        // The reference resolves at fetch time: a later put is what the device loads.
        let changed = Data(
            #"{"responseTopic":"/a/b/c","fields":[{"id":"simpleDropList","type":"droplist","label":"Colour?","values":["Red","Teal"]}]}"#
                .utf8)
        try await f.payloads.put("GetMyFavoriteColor", payload: changed)
        let again = try #require(try f.notifications.message(id: sent.messageIds[0], user: "joe"))
        let label = try JSONValue(json: again.payload).objectValue?["fields"]?.arrayValue?.first?.objectValue?["label"]
        #expect(label == .string("Colour?"))
    }

    @Test func aResponseIsValidatedAgainstTheResolvedPayload() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.payloads.put("GetMyFavoriteColor", payload: namedColour)
        let indirect = Data(#"{"responseTopic":"/a/b/c","payloadName":"GetMyFavoriteColor"}"#.utf8)
        let sent = try await f.notifications.send(to: ["joe", "ann"], title: "T", body: "B", payload: indirect)
        let head = f.log.head
        let rejection = await #expect(throws: FormRejection.self) {
            try await f.notifications.respond(
                messageId: sent.messageIds[0], values: Data(#"{"simpleDropList":"Purple"}"#.utf8),
                as: Respondent(user: "joe", deviceId: "d"))
        }
        #expect(rejection?.problems.map(\.field) == ["simpleDropList"])
        #expect(f.log.head == head)
        let answer = try await f.notifications.respond(
            messageId: sent.messageIds[0], values: Data(#"{"simpleDropList":"Green"}"#.utf8),
            as: Respondent(user: "joe", deviceId: "d"))
        #expect(answer.response.values["simpleDropList"] == .string("Green"))
        // Left alone, the field takes the named payload's default.
        let defaulted = try await f.notifications.respond(
            messageId: sent.messageIds[1], values: Data("{}".utf8), as: Respondent(user: "ann", deviceId: "d"))
        #expect(defaulted.response.values["simpleDropList"] == .string("Blue"))
        #expect(defaulted.response.responseTopic == "/a/b/c")
    }

    @Test func aLargeFormIsSentDirectlyOrByNameAndReadWholeEitherWay() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let values = (0..<400).map { "\"value number \($0)\"" }.joined(separator: ",")
        let big = Data(
            #"{"responseTopic":"/a/b/c","fields":[{"id":"x","type":"droplist","label":"L","values":[\#(values)]}]}"#
                .utf8)
        #expect(big.count > 4096)
        // Above the push size limit, a send is still accepted (the push carries its id).
        let direct = try await f.notifications.send(to: ["joe"], title: "T", body: "B", payload: big)
        #expect(try f.notifications.message(id: direct.messageIds[0], user: "joe")?.payload.count ?? 0 > 4096)
        try await f.payloads.put("Big", payload: big)
        let sent = try await f.notifications.send(
            to: ["joe"], title: "T", body: "B", payload: Data(#"{"responseTopic":"/a/b/c","payloadName":"Big"}"#.utf8))
        let message = try #require(try f.notifications.message(id: sent.messageIds[0], user: "joe"))
        #expect(message.payload.count > 4096)
    }

    @Test func rebuildReproducesTheProjectionsAndVerifyIsClean() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await f.payloads.put("GetMyFavoriteColor", payload: namedColour)
        try await f.payloads.put("Other", payload: Data(#"{"responseTopic":"/x","fields":[]}"#.utf8))
        try await f.payloads.put("Other", payload: Data(#"{"responseTopic":"/y","fields":[]}"#.utf8))
        try await Requests(log: f.log).put(
            "Report", title: "Report", body: "B", responseTopic: "/r", payload: Data(#"{"fields":[]}"#.utf8))
        let before = try (f.payloads.get("GetMyFavoriteColor"), f.payloads.get("Other"))
        let templates = try Requests(log: f.log).list()
        try await f.log.rebuild([NamedPayloadProjection.name, RequestProjection.name])
        let after = try (f.payloads.get("GetMyFavoriteColor"), f.payloads.get("Other"))
        #expect(before == after)
        #expect(after.1 == Data(#"{"responseTopic":"/y","fields":[]}"#.utf8))
        #expect(try Requests(log: f.log).list() == templates)
        let report = try await f.log.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func mergeReplacesTopLevelPropertiesAndMergesFieldsById() {
        let base: [String: JSONValue] = [
            "responseTopic": .string("/a"),
            "fields": .array([.object(["id": .string("x"), "type": .string("text"), "label": .string("L")])]),
        ]
        let sent: [String: JSONValue] = [
            "payloadName": .string("N"),
            "fields": .array([
                .object(["id": .string("x"), "label": .string("M")]), .object(["type": .string("text")]),
            ]),
        ]
        let merged = NamedPayloads.merge(sent, over: base)
        #expect(merged["payloadName"] == nil)
        #expect(merged["responseTopic"] == .string("/a"))
        #expect(
            merged["fields"]
                == .array([
                    .object(["id": .string("x"), "type": .string("text"), "label": .string("M")]),
                    .object(["type": .string("text")]),
                ]))
    }
}
