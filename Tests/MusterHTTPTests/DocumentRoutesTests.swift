import EventLog
import EventLogTesting
import Foundation
import HTTPTypes
import Hummingbird
import MusterHTTP
import Testing

@testable import Muster

/// Uploads are media whose first bytes match their type; documents are served so no browser runs them.
@Suite struct DocumentRoutesTests {
    static let nosniff = HTTPField.Name("X-Content-Type-Options")!
    static let disposition = HTTPField.Name("Content-Disposition")!
    static let policy = HTTPField.Name("Content-Security-Policy")!

    @Test func htmlSavedAsAPhotoAndSVGWithOnloadAreRefusedAndNothingIsStored() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let head = api.log.head
            let blobs = try api.log.blobs.totals()
            for (path, bytes, type) in [
                ("/api/v1/documents?kind=image&extension=jpg", MediaSamples.htmlWithScript, "text/html"),
                ("/api/v1/documents?kind=image", MediaSamples.svgWithOnload, "image/svg+xml"),
                ("/api/v1/documents", MediaSamples.svgWithOnload, "image/svg+xml"),
                ("/api/v1/documents?kind=image&extension=jpg", MediaSamples.htmlWithScript, "image/jpeg"),
                ("/api/v1/documents?kind=image", MediaSamples.file("jpeg"), "text/html"),
            ] {
                let answer = try await client.send(.post, path, token: joe, body: bytes, headers: [.contentType: type])
                #expect(answer.status == .unsupportedMediaType, "\(path) \(type): \(answer.text)")
                #expect(answer.errorCode == "unsupported_media_type")
                #expect(answer.errorMessage.contains("Content-Type"), "\(answer.text)")
                #expect(answer.errorMessage.contains("image/jpeg") && answer.errorMessage.contains("image/png"))
                #expect(!answer.errorMessage.contains("svg+xml is accepted"))
            }
            #expect(api.log.head == head)
            #expect(try api.log.blobs.totals() == blobs)
        }
    }

    @Test func contentOfNoKnownKindIsToldHowToNameItsKindOverHTTP() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let head = api.log.head
            let unknown = try await client.send(
                .post, "/api/v1/documents", token: joe, body: Array("not a picture".utf8),
                headers: [.contentType: "application/octet-stream"])
            #expect(unknown.status == .badRequest, "\(unknown.text)")
            #expect(unknown.errorMessage.contains("application/octet-stream"), "\(unknown.text)")
            #expect(unknown.errorMessage.contains("?kind=image"), "\(unknown.text)")
            #expect(!unknown.errorMessage.contains("--kind"), "\(unknown.text)")
            #expect(api.log.head == head)
        }
    }

    @Test func aTypeThatDoesNotMatchTheFirstBytesIsRefused() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let png = try await client.send(
                .post, "/api/v1/documents?kind=image", token: joe, body: MediaSamples.file("png"),
                headers: [.contentType: "image/jpeg"])
            #expect(png.status == .unsupportedMediaType, "\(png.text)")
            #expect(png.errorMessage.contains("image/png"), "\(png.text)")
            let video = try await client.send(
                .post, "/api/v1/documents?kind=audio", token: joe, body: MediaSamples.file("png"))
            #expect(video.status == .unsupportedMediaType, "\(video.text)")
            #expect(video.errorMessage.contains("audio/mp4"), "\(video.text)")
        }
    }

    @Test(arguments: [
        ("jpeg", "image/jpeg", "image", "jpg"), ("png", "image/png", "image", "png"),
        ("mp4", "video/mp4", "video", "mp4"),
        ("m4a", "audio/mp4", "audio", "m4a"), ("mov", "video/quicktime", "video", "mov"),
    ])
    func realMediaIsAcceptedAndServedWithHeadersThatStopScripts(
        format: String, type: String, kind: String, ext: String
    ) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let bytes = MediaSamples.file(format, size: 5_000)
            for declared in [type, nil] {
                let uploaded = try await client.send(
                    .post, "/api/v1/documents?kind=\(kind)", token: joe, body: bytes,
                    headers: declared.map { [.contentType: $0] } ?? [:])
                #expect(uploaded.status == .created, "\(uploaded.text)")
                #expect(uploaded.object["contentType"] as? String == type)
                let name = try #require(uploaded.object["name"] as? String)
                #expect(name.hasPrefix("rcs/\(kind)/") && name.hasSuffix(".\(ext)"))
                let served = try await client.send(.get, "/api/v1/documents/\(name)", token: joe)
                #expect(served.status == .ok)
                #expect(Array(served.body) == bytes)
                #expect(served.headers[.contentType] == type)
                #expect(served.headers[Self.nosniff] == "nosniff")
                #expect(served.headers[Self.policy] == "sandbox")
                let file = try #require(name.split(separator: "/").last)
                #expect(served.headers[Self.disposition] == #"inline; filename="\#(file)""#)
            }
        }
    }

    @Test func aDocumentStoredEarlierWithAnUnsafeTypeIsServedAsAnAttachment() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        let receipt = try await api.log.blobs.put(MediaSamples.htmlWithScript)
        let old = DocumentUploaded(
            name: "rcs/image/0b9a4a1e-7d7c-4a55-9c1a-2f1d3c4b5a69.jpg", blob: receipt.info.id.hex, kind: .image,
            contentType: "text/html", size: receipt.info.rawSize, uploader: "joe")
        try await api.log.append(
            AppendRequest(stream: "document/\(old.name)", events: [old.newEvent(actor: "joe")]))
        try await api.run { client in
            let joe = try await client.login("joe")
            let served = try await client.send(.get, "/api/v1/documents/\(old.name)", token: joe)
            #expect(served.status == .ok)
            #expect(Array(served.body) == MediaSamples.htmlWithScript)
            #expect(served.headers[.contentType] == "application/octet-stream")
            #expect(served.headers[Self.nosniff] == "nosniff")
            #expect(served.headers[Self.policy] == "sandbox")
            #expect(
                served.headers[Self.disposition] == #"attachment; filename="0b9a4a1e-7d7c-4a55-9c1a-2f1d3c4b5a69.jpg""#)
        }
    }

    @Test func beyondTheUsersQuotaIs413AndBeyondTheNamespacesIs507() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await Settings(log: api.log).set(.documentQuotaPerUser, to: "3MiB")
        try await Settings(log: api.log).set(.documentQuotaPerNamespace, to: "5MiB")
        try await api.run { client in
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let video = MediaSamples.file("mp4", size: 2 << 20)
            let first = try await client.send(.post, "/api/v1/documents?kind=video", token: joe, body: video)
            #expect(first.status == .created, "\(first.text)")
            let head = api.log.head
            let blobs = try api.log.blobs.totals()
            let user = try await client.send(.post, "/api/v1/documents?kind=video", token: joe, body: video)
            #expect(user.status == .contentTooLarge, "\(user.text)")
            #expect(user.errorCode == "quota_exceeded")
            #expect(user.errorMessage.hasPrefix("documents: user joe has 2.0 MiB of 3.0 MiB stored"), "\(user.text)")
            #expect(user.errorMessage.hasSuffix("ask an administrator to raise documentQuotaPerUser"))
            #expect(api.log.head == head)
            #expect(try api.log.blobs.totals() == blobs)
            #expect(try await api.log.verify().problems.isEmpty)

            let second = try await client.send(.post, "/api/v1/documents?kind=video", token: ann, body: video)
            #expect(second.status == .created, "\(second.text)")
            let ada = try await client.login("ada")
            let full = try await client.send(.post, "/api/v1/documents?kind=video", token: ada, body: video)
            #expect(full.status.code == 507, "\(full.text)")
            #expect(full.errorCode == "quota_exceeded")
            #expect(full.errorMessage.contains("namespace default has 4.0 MiB of 5.0 MiB stored"), "\(full.text)")
            #expect(try await api.log.verify().problems.isEmpty)
        }
    }
}
