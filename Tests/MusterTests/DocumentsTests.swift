import EventLog
import EventLogTesting
import Forms
import Foundation
import Muster
import Testing

@Suite struct DocumentsTests {
    /// A log with the domain's projections.
    func open() throws -> (TestLog, EventLog) {
        let t = try TestLog()
        return (t, try t.open { $0.projections += MusterDomain.projections })
    }

    /// Writes `bytes` to a file named `name` in the test directory.
    func file(_ t: TestLog, _ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = t.directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    static let compressible = Array(
        String(repeating: "{\"level\":\"info\",\"msg\":\"recorded\"}\n", count: 80_000).utf8)
    static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func compressibleAndRandomFilesRoundTripByName() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        for (fileName, bytes) in [("memo.m4a", Self.compressible), ("photo.JPG", Self.random(1_300_000))] {
            let url = try file(t, fileName, bytes)
            let document = try await documents.put(file: url, user: "joe")
            #expect(document.size == UInt64(bytes.count))
            #expect(try documents.bytes(document.name) == bytes)
            let out = t.directory.url.appendingPathComponent("out-\(fileName)")
            try documents.get(document.name, to: out)
            #expect(try Data(contentsOf: out) == Data(bytes))
            let stored = try #require(try documents.document(document.name))
            #expect(stored == document)
            #expect(try log.blobs.exists(try #require(document.blobID)))
        }
        let totals = try log.blobs.totals()
        #expect(totals.storedBytes < totals.rawBytes)
    }

    @Test(arguments: [
        ("a.m4a", MediaKind.audio, "m4a", "audio/mp4"), ("a.mp3", .audio, "mp3", "audio/mpeg"),
        ("a.wav", .audio, "wav", "audio/wav"), ("a.aac", .audio, "aac", "audio/aac"),
        ("a.jpeg", .image, "jpeg", "image/jpeg"), ("a.png", .image, "png", "image/png"),
        ("a.heic", .image, "heic", "image/heic"), ("a.mp4", .video, "mp4", "video/mp4"),
        ("a.MOV", .video, "mov", "video/quicktime"), ("a.m4v", .video, "m4v", "video/x-m4v"),
    ])
    func kindAndNameFollowTheExtension(file name: String, kind: MediaKind, ext: String, type: String) async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let document = try await Documents(log: log).put(file: try file(t, name, [1, 2, 3]), user: "joe")
        #expect(document.kind == kind)
        #expect(document.contentType == type)
        #expect(document.uploader == "joe")
        #expect(document.name.hasPrefix("rcs/\(kind.rawValue)/"))
        #expect(document.name.hasSuffix(".\(ext)"))
        #expect(kind.isDocumentName(document.name))
        let uuid = document.name.dropFirst(kind.prefix.count).dropLast(ext.count + 1)
        #expect(uuid == uuid.lowercased() && UUID(uuidString: String(uuid)) != nil)
    }

    @Test func unknownExtensionNeedsAKindAndGivenKindWins() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        let pdf = try file(t, "report.pdf", [1])
        let error = await #expect(throws: StoreError.self) { try await documents.put(file: pdf, user: "joe") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("--kind") == true)
        #expect(log.head == 0)
        let forced = try await documents.put(file: pdf, kind: .image, user: "joe")
        #expect(forced.name.hasPrefix("rcs/image/") && forced.name.hasSuffix(".pdf"))
        #expect(forced.contentType == "application/octet-stream")
        let bare = try await documents.put(file: try file(t, "clip", [2]), kind: .video, user: "joe")
        #expect(bare.name.hasSuffix(".mp4"))
    }

    @Test func unknownNamesAndMissingFilesAreNotFound() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        let error = #expect(throws: StoreError.self) {
            try documents.get("rcs/audio/nope.m4a", to: t.directory.url.appendingPathComponent("x"))
        }
        #expect(error?.code == .notFound)
        #expect(try documents.document("rcs/audio/nope.m4a") == nil)
        let missing = await #expect(throws: StoreError.self) {
            try await documents.put(file: t.directory.url.appendingPathComponent("gone.m4a"), user: "joe")
        }
        #expect(missing?.code == .notFound)
        #expect(log.head == 0)
    }

    @Test func rebuildReproducesDocumentsAndVerifyIsClean() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        var names: [DocumentUploaded] = []
        for name in ["a.m4a", "b.png", "c.mov"] {
            names.append(try await documents.put(file: try file(t, name, Array(name.utf8)), user: "ann"))
        }
        let event = try #require(try log.events(EventQuery(type: DocumentUploaded.type)).first)
        let json = String(decoding: try #require(EventCatalogue.json(event)), as: UTF8.self)
        #expect(json.contains(#""name":"\#(names[0].name)""#))
        try await log.rebuild([DocumentsProjection.name])
        for document in names { #expect(try documents.document(document.name) == document) }
        let report = try await log.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }
}
