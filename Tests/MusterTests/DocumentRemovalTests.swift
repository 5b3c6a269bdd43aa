import EventLog
import EventLogTesting
import Foundation
import Muster
import MusterWire
import Testing

/// A document removed by its uploader or an administrator: nobody reads it by name, no answer names it, and its size
/// leaves the quotas; what named it keeps the name.
@Suite struct DocumentRemovalTests {
    @Test func aRemovedDocumentIsReadByNobodyAndFreesItsQuota() async throws {
        let f = try await MediaAnswerTests().fixture()
        defer { f.t.directory.remove() }
        try await Settings(log: f.log).set(.documentQuotaPerUser, to: "1KiB")
        let photo = try await f.upload(MediaSamples.file("jpeg", size: 1000), .image, by: "joe")
        let kept = try await f.upload(MediaSamples.file("png", size: 20), .image, by: "joe")
        let shown = Data(#"{"responseTopic":"/look","fields":[{"type":"image","url":"\#(photo)"}]}"#.utf8)
        _ = try await f.notifications.send(to: ["ann"], title: "Look", body: "", payload: shown)
        #expect(try f.documents.document(photo, readableBy: "ann") != nil)
        await #expect(throws: MusterError.self) {
            try await f.upload(MediaSamples.file("jpeg", size: 100), .image, by: "joe")
        }

        let removed = try await f.documents.remove(photo, actor: "joe")

        #expect(removed.name == photo && removed.uploader == "joe")
        #expect(try f.documents.document(photo) == nil)
        #expect(try f.documents.document(photo, readableBy: "ann") == nil)
        #expect(try f.documents.document(photo, readableBy: "joe") == nil)
        #expect(try f.documents.uploads(of: "joe").map(\.document.name) == [kept])
        // Its 1000 bytes no longer count: joe uploads again.
        _ = try await f.upload(MediaSamples.file("jpeg", size: 100), .image, by: "joe")
        // Nor can an answer name it any more.
        await #expect(throws: (any Error).self) {
            _ = try await f.answer(["mySelfie": .string(photo)])
        }
        // The same from the events alone.
        try await f.log.rebuild([DocumentsProjection.name])
        #expect(try f.documents.document(photo) == nil)
        #expect(try f.documents.document(kept, readableBy: "joe")?.name == kept)
        #expect(try await f.log.verify().problems.isEmpty)
    }

    @Test func anUnknownOrRemovedDocumentIsNotFoundAndNothingIsWritten() async throws {
        let f = try await MediaAnswerTests().fixture()
        defer { f.t.directory.remove() }
        let photo = try await f.upload(MediaSamples.file("jpeg"), .image, by: "joe")
        try await f.documents.remove(photo)
        let head = f.log.head

        for name in [photo, "rcs/image/nope.jpg"] {
            await #expect {
                try await f.documents.remove(name)
            } throws: { ($0 as? MusterError)?.code == .notFound && "\($0)".contains("muster documents list") }
        }
        #expect(f.log.head == head)
    }

    @Test func theAuditSaysWhoRemovedWhoseDocument() async throws {
        let f = try await MediaAnswerTests().fixture()
        defer { f.t.directory.remove() }
        let photo = try await f.upload(MediaSamples.file("jpeg"), .image, by: "joe")
        try await f.documents.remove(photo, actor: "ada")

        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe"))

        #expect(audit.map(\.what) == [.userCreated, .documentUploaded, .documentRemoved], "\(audit.map(\.detail))")
        #expect(audit.last?.detail == "\(photo) of joe removed by ada")
        #expect(audit.last?.document == photo)
        let event = try #require(try f.log.events(EventQuery(type: DocumentRemoved.type)).first)
        let json = String(decoding: try #require(EventCatalogue.json(event)), as: UTF8.self)
        #expect(json.contains(#""name":"\#(photo)""#))
    }
}
