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
    static func random(_ count: Int) -> [UInt8] { randomBytes(count) }

    @Test func compressibleAndRandomFilesRoundTripByName() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        for (fileName, bytes) in [
            ("memo.m4a", MediaSamples.header("m4a") + Self.compressible),
            ("photo.JPG", MediaSamples.header("jpeg") + Self.random(1_300_000)),
        ] {
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
        let format = ["jpeg": "jpeg", "heic": "heic", "mov": "mov"][ext] ?? ext
        let document = try await Documents(log: log).put(
            file: try file(t, name, MediaSamples.file(format)), user: "joe")
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
        let error = await #expect(throws: MusterError.self) { try await documents.put(file: pdf, user: "joe") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("--kind") == true)
        #expect(log.head == 0)
        let forced = await #expect(throws: MusterError.self) {
            try await documents.put(file: pdf, kind: .image, user: "joe")
        }
        #expect(forced?.code == .unsupportedMediaType)
        #expect(log.head == 0)
        // The content tells the kind, and the name's extension follows the stored type.
        let png = try await documents.put(file: try file(t, "scan.pdf", MediaSamples.file("png")), user: "joe")
        #expect(png.name.hasPrefix("rcs/image/") && png.name.hasSuffix(".png"))
        #expect(png.contentType == "image/png")
        let bare = try await documents.put(
            file: try file(t, "clip", MediaSamples.file("mov")), kind: .video, user: "joe")
        #expect(bare.name.hasSuffix(".mov"))
        #expect(bare.contentType == "video/quicktime")
        let audio = try await documents.put(
            file: try file(t, "clip.mp4", MediaSamples.file("m4a")), kind: .audio, user: "joe")
        #expect(audio.name.hasPrefix("rcs/audio/") && audio.name.hasSuffix(".mp4"))
        #expect(audio.contentType == "audio/mp4")
    }

    @Test func unknownNamesAndMissingFilesAreNotFound() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        let error = #expect(throws: MusterError.self) {
            try documents.get("rcs/audio/nope.m4a", to: t.directory.url.appendingPathComponent("x"))
        }
        #expect(error?.code == .notFound)
        #expect(try documents.document("rcs/audio/nope.m4a") == nil)
        let missing = await #expect(throws: MusterError.self) {
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
        for (name, format) in [("a.m4a", "m4a"), ("b.png", "png"), ("c.mov", "mov")] {
            let bytes = MediaSamples.header(format) + Array(name.utf8)
            names.append(try await documents.put(file: try file(t, name, bytes), user: "ann"))
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

/// The storage quotas: per user and per namespace, checked when the blob and its event are committed.
@Suite struct DocumentQuotaTests {
    func open() throws -> (TestLog, EventLog) {
        let t = try TestLog()
        return (t, try t.open { $0.projections += MusterDomain.projections })
    }

    func file(_ t: TestLog, _ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = t.directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test func anUploadBeyondTheUsersQuotaIsRefusedAndLeavesNothing() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        try await Settings(log: log).set(.documentQuotaPerUser, to: "150")
        let photo = try file(t, "a.png", MediaSamples.file("png", size: 100))
        let other = try file(t, "b.png", MediaSamples.file("png", size: 101))
        try await documents.put(file: photo, user: "joe")
        let head = log.head
        let blobs = try log.blobs.totals()
        let refused = await #expect(throws: MusterError.self) {
            try await documents.put(file: other, user: "joe")
        }
        #expect(refused?.code == .userQuota)
        #expect(
            refused?.message
                == "documents: user joe has 100 bytes of 150 bytes stored, and this upload of 101 bytes is larger "
                + "than the 50 bytes left; ask an administrator to raise documentQuotaPerUser")
        // The same over a stream whose size is not known in advance: it stops once past the quota.
        let streamed = await #expect(throws: MusterError.self) {
            try await documents.put(Self.pieces(MediaSamples.file("png", size: 3_000_000)), kind: .image, user: "joe")
        }
        #expect(streamed?.code == .userQuota)
        #expect(log.head == head)
        #expect(try log.blobs.totals() == blobs)
        #expect(try await log.verify().problems.isEmpty)
        // Another user has a quota of their own.
        try await documents.put(file: other, user: "ann")
    }

    @Test func aUserAtTheQuotaIsToldSoAndAnAdministratorCanRaiseIt() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        try await Settings(log: log).set(.documentQuotaPerUser, to: "1KiB")
        try await documents.put(file: try file(t, "a.png", MediaSamples.file("png", size: 1024)), user: "joe")
        let next = try file(t, "b.jpg", MediaSamples.file("jpeg", size: 10))
        let refused = await #expect(throws: MusterError.self) { try await documents.put(file: next, user: "joe") }
        #expect(
            refused?.message
                == "documents: user joe has 1.0 KiB of 1.0 KiB stored; ask an administrator to raise documentQuotaPerUser"
        )
        // The totals come back from the events alone.
        try await log.rebuild([DocumentsProjection.name])
        await #expect(throws: MusterError.self) { try await documents.put(file: next, user: "joe") }
        try await Settings(log: log).set(.documentQuotaPerUser, to: "unset")
        try await documents.put(file: next, user: "joe")
    }

    @Test func anUploadBeyondTheNamespacesQuotaIsRefused() async throws {
        let (t, log) = try open()
        defer { t.directory.remove() }
        let documents = Documents(log: log)
        try await Settings(log: log).set(.documentQuotaPerNamespace, to: "250")
        let photo = try file(t, "a.png", MediaSamples.file("png", size: 100))
        try await documents.put(file: photo, user: "joe")
        try await documents.put(file: photo, user: "ann")
        let head = log.head
        let refused = await #expect(throws: MusterError.self) { try await documents.put(file: photo, user: "cy") }
        #expect(refused?.code == .namespaceQuota)
        #expect(refused?.message.contains("namespace default has 200 bytes of 250 bytes stored") == true)
        #expect(log.head == head)
        // Another namespace is not counted.
        try await documents.put(file: photo, user: "cy", namespace: "other")
    }

    @Test func quotaSettingsTakeBytesWithUnitsOrUnset() throws {
        #expect(try Setting.documentQuotaPerUser.normalize("2GiB") == "2147483648")
        #expect(try Setting.documentQuotaPerUser.normalize("500 MiB") == "524288000")
        #expect(try Setting.documentQuotaPerNamespace.normalize("0") == "0")
        #expect(try Setting.documentQuotaPerNamespace.normalize("unset") == nil)
        #expect(Setting.documentQuotaPerUser.defaultValue == "1073741824")
        #expect(Setting.documentQuotaPerNamespace.defaultValue == nil)
        let bad = #expect(throws: MusterError.self) { try Setting.documentQuotaPerUser.normalize("lots") }
        #expect(bad?.message.contains("documentQuotaPerUser takes a number of bytes") == true)
        #expect(throws: MusterError.self) { try Setting.documentQuotaPerUser.normalize("-5") }
    }

    /// `bytes` in pieces of 64 KiB, as an HTTP body arrives.
    static func pieces(_ bytes: [UInt8]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + 65_536)]))
                offset += 65_536
            }
            continuation.finish()
        }
    }
}
