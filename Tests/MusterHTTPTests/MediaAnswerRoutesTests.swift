import EventLog
import EventLogTesting
import Foundation
import HTTPTypes
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// Media answers over HTTP: uploaded first, answered with the name; shown to others by a message; from a
/// registered device when the namespace says so.
@Suite struct MediaAnswerRoutesTests {
    static let audioForm = #"""
        {"responseTopic": "/media", "fields": [
          {"id": "audio1", "type": "audio", "maxDurationSeconds": 20, "maxSizeK": 200}]}
        """#

    /// Sends `payload` from ada to `to`; the message id of the first recipient's copy.
    func send(_ client: APITester.Client, _ ada: String, to: String, _ payload: String) async throws -> String {
        let sent = try await client.send(
            .post, "/api/v1/notifications", token: ada,
            json: #"{"to":["\#(to)"],"title":"Media","body":"","payload":\#(payload)}"#)
        #expect(sent.status == .created, "\(sent.text)")
        return try #require((sent.object["messageIds"] as? [String])?.first)
    }

    /// Uploads `bytes` as `token`'s document of `kind`; its name.
    func upload(_ client: APITester.Client, _ token: String, _ bytes: [UInt8], kind: String) async throws -> String {
        let uploaded = try await client.send(.post, "/api/v1/documents?kind=\(kind)", token: token, body: bytes)
        #expect(uploaded.status == .created, "\(uploaded.text)")
        return try #require(uploaded.object["name"] as? String)
    }

    @Test func anAudioAnswerMustBeTheRespondersUploadWithinTheFieldsLimits() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let annsClip = try await upload(client, ann, RecordedMedia.wav(seconds: 2), kind: "audio")
            let long = try await upload(client, joe, RecordedMedia.wav(seconds: 25), kind: "audio")
            let id = try await send(client, ada, to: "joe", Self.audioForm)
            for (name, message) in [
                ("rcs/audio/f9ceddab-add2-4b10-a602-65f82cc0a9da.m4a", "no document joe uploaded"),
                (annsClip, "no document joe uploaded"), (long, "maxDurationSeconds of 20"),
            ] {
                let refused = try await client.send(
                    .post, "/api/v1/messages/\(id)/response", token: joe,
                    json: #"{"deviceId":"phone","values":{"audio1":"\#(name)"}}"#)
                #expect(refused.status == .unprocessableContent, "\(refused.text)")
                #expect(refused.errorCode == "invalid_values")
                #expect(refused.errorFields == ["audio1"])
                #expect(refused.text.contains(message), "\(refused.text)")
            }
            let clip = try await upload(client, joe, RecordedMedia.wav(seconds: 3), kind: "audio")
            let answer = try await client.send(
                .post, "/api/v1/messages/\(id)/response", token: joe,
                json: #"{"deviceId":"phone","values":{"audio1":"\#(clip)"}}"#)
            #expect(answer.status == .created, "\(answer.text)")
            #expect((answer.object["values"] as? [String: Any])?["audio1"] as? String == clip)
        }
    }

    @Test func theRecipientsOfAMessageShowingADocumentMayFetchItAndNoOneElse() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let bytes = MediaSamples.file("jpeg", size: 300)
            let photo = try await upload(client, joe, bytes, kind: "image")
            #expect(try await client.send(.get, "/api/v1/documents/\(photo)", token: ann).status == .notFound)
            _ = try await send(
                client, ada, to: "ann",
                #"{"responseTopic": "/look", "fields": [{"type": "document", "flavor": "vimage", "url": "\#(photo)"}]}"#
            )
            let fetched = try await client.send(.get, "/api/v1/documents/\(photo)", token: ann)
            #expect(fetched.status == .ok, "\(fetched.text)")
            #expect(Array(fetched.body) == bytes)
            // Joe in another namespace is another person: still not found for him.
            let otherJoe = try await client.login("joe", namespace: "other", password: "secret-joe-other")
            #expect(try await client.send(.get, "/api/v1/documents/\(photo)", token: otherJoe).status == .notFound)
        }
    }

    @Test func withRequireRegisteredDeviceOnAnUnregisteredDeviceIdIsRefusedNamingIt() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let set = try await client.send(
                .put, "/api/v1/settings/requireRegisteredDevice", token: ada, json: #"{"value":"true"}"#)
            #expect(set.status == .ok, "\(set.text)")
            let id = try await send(client, ada, to: "joe", colourPayload)
            let head = api.log.head
            let refused = try await client.send(
                .post, "/api/v1/messages/\(id)/response", token: joe, json: #"{"deviceId":"phone","values":{}}"#)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorFields == ["deviceId"])
            #expect(refused.errorMessage.contains("register the device"))
            #expect(api.log.head == head)
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"phone","deviceName":"Joe's phone","platform":"apns","token":"abcd"}"#)
            #expect(registered.status == .created)
            let answer = try await client.send(
                .post, "/api/v1/messages/\(id)/response", token: joe, json: #"{"deviceId":"phone","values":{}}"#)
            #expect(answer.status == .created, "\(answer.text)")
            #expect(answer.object["deviceName"] as? String == "Joe's phone")
        }
    }
}
