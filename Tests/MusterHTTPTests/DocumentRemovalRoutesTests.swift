import EventLog
import EventLogTesting
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `DELETE /api/v1/documents/{name}`: the uploader removes their own, an administrator any of the namespace; someone
/// a message showed it to reads it but does not remove it, and anyone else learns nothing of it.
@Suite struct DocumentRemovalRoutesTests {
    @Test func theUploaderRemovesTheirOwnAndTheirQuotaIsFreed() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await Settings(log: api.log).set(.documentQuotaPerUser, to: "3MiB")
        try await api.run { client in
            let joe = try await client.login("joe")
            let video = MediaSamples.file("mp4", size: 2 << 20)
            let first = try await client.send(.post, "/api/v1/documents?kind=video", token: joe, body: video)
            let name = try #require(first.object["name"] as? String, "\(first.text)")
            let full = try await client.send(.post, "/api/v1/documents?kind=video", token: joe, body: video)
            #expect(full.status == .contentTooLarge, "\(full.text)")

            let removed = try await client.send(.delete, "/api/v1/documents/\(name)", token: joe)

            #expect(removed.status == .noContent, "\(removed.text)")
            #expect(try await client.send(.get, "/api/v1/documents/\(name)", token: joe).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/documents", token: joe).text == "[]")
            let again = try await client.send(.post, "/api/v1/documents?kind=video", token: joe, body: video)
            #expect(again.status == .created, "\(again.text)")
            let twice = try await client.send(.delete, "/api/v1/documents/\(name)", token: joe)
            #expect(twice.status == .notFound, "\(twice.text)")
        }
    }

    @Test func aRecipientMayNotRemoveItAnotherNamespaceCannotSeeItAndAnAdministratorMay() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let ada = try await client.login("ada")
            let eve = try await client.login("eve", namespace: "other")
            let uploaded = try await client.send(
                .post, "/api/v1/documents?kind=image", token: joe, body: MediaSamples.file("jpeg"),
                headers: [.contentType: "image/jpeg"])
            let name = try #require(uploaded.object["name"] as? String, "\(uploaded.text)")
            let shown = #"{"responseTopic":"/look","fields":[{"type":"image","url":"\#(name)"}]}"#
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["ann"],"title":"Look","body":"","payload":\#(shown)}"#)
            #expect(sent.status == .created, "\(sent.text)")
            #expect(try await client.send(.get, "/api/v1/documents/\(name)", token: ann).status == .ok)
            let head = api.log.head

            let byAnn = try await client.send(.delete, "/api/v1/documents/\(name)", token: ann)
            #expect(byAnn.status == .forbidden, "\(byAnn.text)")
            #expect(byAnn.errorMessage == "only joe, who uploaded \(name), or an administrator may remove it")
            let byEve = try await client.send(.delete, "/api/v1/documents/\(name)", token: eve)
            #expect(byEve.status == .notFound, "\(byEve.text)")
            let nothing = try await client.send(.delete, "/api/v1/documents/rcs/image/nope.jpg", token: ada)
            #expect(nothing.status == .notFound, "\(nothing.text)")
            #expect(api.log.head == head, "nothing was recorded")

            let byAda = try await client.send(.delete, "/api/v1/documents/\(name)", token: ada)
            #expect(byAda.status == .noContent, "\(byAda.text)")
            #expect(try await client.send(.get, "/api/v1/documents/\(name)", token: ann).status == .notFound)
            let audit = try await client.send(.get, "/api/v1/audit?user=joe", token: ada)
            #expect(audit.text.contains("\(name) of joe removed by ada"), "\(audit.text)")
        }
    }
}
