import EventLog
import EventLogTesting
import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// An answer sent again with its `responseId` (the web app's outbox after a lost reply) is answered with the
/// response recorded the first time, and records nothing new.
@Suite struct ResponseIdRoutesTests {
    @Test func aMessageAnswerSentTwiceWithItsResponseIdIsRecordedOnce() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Colour","body":"Pick one","payload":\#(colourPayload)}"#)
            let messageId = try #require((sent.object["messageIds"] as? [String])?.first)
            let responseId = UUID().uuidString
            let body = #"{"deviceId":"web-1","values":{"simpleDropList":"Red"},"responseId":"\#(responseId)"}"#
            let first = try await client.send(.post, "/api/v1/messages/\(messageId)/response", token: joe, json: body)
            #expect(first.status == .created, "\(first.text)")
            let head = api.log.head

            let again = try await client.send(.post, "/api/v1/messages/\(messageId)/response", token: joe, json: body)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.body == first.body, "the same response object, byte for byte")
            #expect(api.log.head == head, "nothing new recorded")
            let answers = try api.log.read { reader in
                var count = 0
                try reader.events(EventQuery(type: ResponseReceived.type)) { _ in
                    count += 1
                    return true
                }
                return count
            }
            #expect(answers == 1)

            // Another id for the answered message is the usual conflict; the id used for another message is refused.
            let other = try await client.send(
                .post, "/api/v1/messages/\(messageId)/response", token: joe,
                json: #"{"deviceId":"web-1","values":{},"responseId":"\#(UUID().uuidString)"}"#)
            #expect(other.status == .conflict)
            let second = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Colour","body":"Again","payload":\#(colourPayload)}"#)
            let secondId = try #require((second.object["messageIds"] as? [String])?.first)
            let reused = try await client.send(
                .post, "/api/v1/messages/\(secondId)/response", token: joe, json: body)
            #expect(reused.status == .conflict, "\(reused.text)")
            #expect(reused.errorMessage.contains("responseId"))
            #expect(api.log.head == head + 1, "only the second send")
        }
    }

    @Test func aRequestAnswerSentTwiceWithItsResponseIdStartsItOnce() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let fields = #"{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}"#
            let template = #"{"title":"Report","body":"Tell us","responseTopic":"/faults/new","payload":\#(fields)}"#
            #expect(try await client.send(.put, "/api/v1/requests/report", token: ada, json: template).status == .ok)
            let responseId = UUID().uuidString
            let body = #"{"deviceId":"web-1","values":{"what":"pump 3"},"responseId":"\#(responseId)"}"#
            let first = try await client.send(.post, "/api/v1/requests/report/response", token: joe, json: body)
            #expect(first.status == .created, "\(first.text)")
            let head = api.log.head
            let again = try await client.send(.post, "/api/v1/requests/report/response", token: joe, json: body)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.body == first.body)
            #expect(api.log.head == head)

            // Without an id, each answer is a new one (a request may be started any number of times).
            let plain = #"{"deviceId":"web-1","values":{"what":"pump 4"}}"#
            #expect(
                try await client.send(.post, "/api/v1/requests/report/response", token: joe, json: plain).status
                    == .created)
            #expect(api.log.head == head + 1)

            // Someone else's id is not theirs to replay.
            let stolen = try await client.send(.post, "/api/v1/requests/report/response", token: ann, json: body)
            #expect(stolen.status == .conflict, "\(stolen.text)")
            #expect(api.log.head == head + 1)

            let malformed = try await client.send(
                .post, "/api/v1/requests/report/response", token: joe,
                json: #"{"deviceId":"web-1","values":{"what":"x"},"responseId":"not-a-uuid"}"#)
            #expect(malformed.status == .badRequest, "\(malformed.text)")
            #expect(malformed.errorMessage.contains("responseId") || malformed.errorFields.contains("responseId"))
        }
    }

    @Test func theDocumentListShowsTheCallersOwnUploadsAndAnAdministratorMayAskForAnyones() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            #expect(try await client.send(.get, "/api/v1/documents", token: joe).array.isEmpty)
            var names: [String] = []
            for format in ["jpeg", "m4a"] {
                let uploaded = try await client.send(
                    .post, "/api/v1/documents", token: joe, body: MediaSamples.file(format, size: 2_000),
                    headers: [.contentType: format == "jpeg" ? "image/jpeg" : "audio/mp4"])
                #expect(uploaded.status == .created, "\(uploaded.text)")
                names.append(try #require(uploaded.object["name"] as? String))
            }
            _ = try await client.send(
                .post, "/api/v1/documents", token: ann, body: MediaSamples.file("png", size: 1_000),
                headers: [.contentType: "image/png"])

            let listed = try await client.send(.get, "/api/v1/documents", token: joe)
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(Set(listed.array.compactMap { $0["name"] as? String }) == Set(names))
            let audio = try #require(listed.array.first { ($0["name"] as? String) == names[1] })
            #expect(audio["size"] as? Int == 2_000)
            #expect(audio["contentType"] as? String == "audio/mp4")
            #expect(audio["kind"] as? String == "audio")
            #expect((audio["uploadedAt"] as? String)?.hasSuffix("Z") == true)

            let forbidden = try await client.send(.get, "/api/v1/documents?user=ann", token: joe)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.errorFields == ["user"])
            let annsAsAdmin = try await client.send(.get, "/api/v1/documents?user=ann", token: ada)
            #expect(annsAsAdmin.array.count == 1)
            #expect(annsAsAdmin.array.first?["contentType"] as? String == "image/png")
            #expect(try await client.send(.get, "/api/v1/documents", token: ada).array.isEmpty)
        }
    }
}
