import EventLogTesting
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// A user never sees another user's inbox, messages, devices or documents; no namespace sees another's.
@Suite struct IsolationTests {
    @Test func aUserCannotReadOrAnswerAnotherUsersMessage() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["ann"],"title":"For ann","body":"B","payload":\#(colourPayload)}"#)
            let annsMessage = try #require((sent.object["messageIds"] as? [String])?.first)
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.isEmpty)
            #expect(try await client.send(.get, "/api/v1/messages/\(annsMessage)", token: joe).status == .notFound)
            let head = api.log.head
            let answer = try await client.send(
                .post, "/api/v1/messages/\(annsMessage)/response", token: joe,
                json: #"{"deviceId":"phone","values":{}}"#)
            #expect(answer.status == .notFound)
            #expect(api.log.head == head)
        }
    }

    @Test func devicesAreEachUsersOwn() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"joe-phone","deviceName":"Joe's phone","platform":"apns","token":"abcd"}"#)
            #expect(registered.status == .created)
            #expect(registered.object["user"] as? String == "joe")
            #expect(try await client.send(.get, "/api/v1/devices", token: ann).array.isEmpty)
            #expect(try await client.send(.delete, "/api/v1/devices/joe-phone", token: ann).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/devices", token: joe).array.count == 1)
            let badPlatform = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"x","deviceName":"x","platform":"pager"}"#)
            #expect(badPlatform.status == .badRequest)
            #expect(badPlatform.errorFields == ["platform"])
            #expect(try await client.send(.delete, "/api/v1/devices/joe-phone", token: joe).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/devices", token: joe).array.isEmpty)
        }
    }

    @Test func documentsAreTheUploadersAndTheirAdministrators() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let ada = try await client.login("ada")
            let bytes = MediaSamples.file("png", size: 300_000)
            let uploaded = try await client.send(
                .post, "/api/v1/documents?kind=image", token: joe, body: bytes, headers: [.contentType: "image/png"])
            #expect(uploaded.status == .created, "\(uploaded.text)")
            let name = try #require(uploaded.object["name"] as? String)
            #expect(name.hasPrefix("rcs/image/") && name.hasSuffix(".png"))
            let mine = try await client.send(.get, "/api/v1/documents/\(name)", token: joe)
            #expect(mine.status == .ok)
            #expect(Array(mine.body) == bytes)
            #expect(mine.headers[.contentType] == "image/png")
            #expect(try await client.send(.get, "/api/v1/documents/\(name)", token: ann).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/documents/\(name)", token: ada).status == .ok)
            let unknownKind = try await client.send(
                .post, "/api/v1/documents?kind=hologram", token: joe, body: [1, 2, 3])
            #expect(unknownKind.status == .badRequest)
            #expect(unknownKind.errorFields == ["kind"])
        }
    }

    @Test func anotherNamespaceSeesNothingOfThisOne() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let eve = try await client.login("eve", namespace: "other")
            let otherJoe = try await client.login("joe", namespace: "other", password: "secret-joe-other")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Default joe","body":"B","payload":\#(colourPayload)}"#)
            let id = try #require((sent.object["messageIds"] as? [String])?.first)
            #expect(try await client.send(.get, "/api/v1/inbox", token: otherJoe).array.isEmpty)
            #expect(try await client.send(.get, "/api/v1/messages/\(id)", token: otherJoe).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/messages/\(id)", token: eve).status == .notFound)
            let users = try await client.send(.get, "/api/v1/users", token: eve)
            #expect(Set(users.array.compactMap { $0["username"] as? String }) == ["eve", "joe"])
            let events = try await client.send(.get, "/api/v1/events", token: eve)
            #expect(events.array.allSatisfy { $0["namespace"] as? String == "other" })
            #expect(!events.array.contains { ($0["type"] as? String) == "PayloadSent" })
            let toGroup = try await client.send(
                .post, "/api/v1/notifications", token: eve,
                json: #"{"groups":["ops"],"title":"T","body":"B","payload":\#(colourPayload)}"#)
            #expect(toGroup.status == .badRequest)
        }
    }
}
