import Foundation
import MusterWire
import Testing

@testable import MusterClient

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try MusterJSON.decoder().decode(T.self, from: Data(json.utf8))
}

/// The administrators' answers as the server writes them (`Docs/HTTP.md`, Administration).
@Suite struct AdministrationModelTests {
    /// A newer server may add kinds of audit entries: a client of this release reads the whole list, keeping the
    /// new kind by its name, and writes it back as it came.
    @Test func anAuditEntryOfAKindThisReleaseDoesNotKnowStillReads() throws {
        let entries = try decode(
            [AuditEntry].self,
            #"""
            [{"position":7,"time":"2026-11-26T17:00:00.000Z","namespace":"default","what":"payloadSent",
              "detail":"sent","actor":"ada"},
             {"position":8,"time":"2026-11-26T17:00:01.000Z","namespace":"default","what":"somethingNewer",
              "detail":"a kind from a later release","actor":"ada"}]
            """#)
        #expect(entries.map(\.what) == [.payloadSent, AuditEntry.What(rawValue: "somethingNewer")])
        #expect(entries[1].what.rawValue == "somethingNewer" && entries[1].what != .payloadSent)
        let again = String(decoding: try MusterJSON.encoder().encode(entries[1]), as: UTF8.self)
        #expect(again.contains(#""what":"somethingNewer""#), "\(again)")
    }

    @Test func groups() throws {
        let groups = try decode([Group].self, #"[{"name":"ops","members":["joe","ann"]}]"#)
        #expect(groups == [Group(name: "ops", members: ["joe", "ann"])])
    }

    @Test func settingsWithAndWithoutAValue() throws {
        let settings = try decode(
            [NamespaceSetting].self,
            #"""
            [{"key":"dailyNotificationLimit","isDefault":true},
             {"key":"pushSizeLimit","value":"300","isDefault":false}]
            """#)
        #expect(settings[0] == NamespaceSetting(key: "dailyNotificationLimit", value: nil, isDefault: true))
        #expect(settings[1] == NamespaceSetting(key: "pushSizeLimit", value: "300", isDefault: false))
    }

    @Test func aStoredPayloadSaysWhetherItReplacedOne() throws {
        #expect(try decode(StoredPayload.self, #"{"name":"p","replaced":true}"#).replaced == true)
        #expect(try decode(StoredPayload.self, #"{"name":"p"}"#).replaced == nil)
    }

    @Test func auditEntriesStayAsTheServerWroteThem() throws {
        let entries = try decode(
            [JSONValue].self, #"[{"position":7,"time":"2026-11-21T17:00:00.123Z","what":"loggedIn","actor":"joe"}]"#)
        #expect(entries[0]["position"]?.intValue == 7)
        #expect(entries[0]["time"]?.stringValue == "2026-11-21T17:00:00.123Z")
        #expect(
            entries[0].description
                == #"{"actor":"joe","position":7,"time":"2026-11-21T17:00:00.123Z","what":"loggedIn"}"#)
    }

    @Test(
        arguments: [
            ("jpg", Document.Kind.image, "image/jpeg"), ("PNG", .image, "image/png"), ("m4a", .audio, "audio/mp4"),
            ("mov", .video, "video/quicktime"),
        ] as [(String, Document.Kind, String)])
    func aFileExtensionTellsTheKindAndType(_ ext: String, _ kind: Document.Kind, _ type: String) {
        let described = Document.describe(fileExtension: ext)
        #expect(described?.kind == kind)
        #expect(described?.contentType == type)
    }

    @Test func anUnknownExtensionTellsNothing() {
        #expect(Document.describe(fileExtension: "txt") == nil)
        #expect(Document.describe(fileExtension: "") == nil)
    }
}
