import Foundation
import Hummingbird
import PushTesting
import Testing

@testable import MusterHTTP

/// `/api/v1/push/sources` and `/api/v1/push/vapid-public-key`: who may call them and what they refuse.
@Suite struct PushSourcesRoutesTests {
    @Test func onlyAdministratorsReachTheSources() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let body = #"{"name":"browsers","kind":"webpush","subject":"mailto:ops@example.org"}"#
            let answers = [
                try await client.send(.get, "/api/v1/push/sources", token: joe),
                try await client.send(.post, "/api/v1/push/sources", token: joe, json: body),
                try await client.send(.delete, "/api/v1/push/sources/browsers", token: joe),
                try await client.send(
                    .post, "/api/v1/push/sources/browsers/test", token: joe, json: #"{"user":"joe"}"#),
            ]
            for answer in answers {
                #expect(answer.status == .forbidden, "\(answer.text)")
                #expect(answer.errorCode == "forbidden")
            }
            let anonymous = try await client.send(.get, "/api/v1/push/sources")
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func anInvalidEndpointIsA400NamingTheMember() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let refused = try await client.send(
                .post, "/api/v1/push/sources", token: ada,
                json: #"{"name":"browsers","kind":"webpush","subject":"mailto:ops@example.org","endpoint":"ftp:x"}"#)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorFields == ["endpoint"])
            #expect(refused.errorMessage.hasPrefix("endpoint: "), "\(refused.errorMessage)")
            #expect(!refused.errorMessage.contains("--endpoint"), "\(refused.errorMessage)")
            let listed = try await client.send(.get, "/api/v1/push/sources", token: ada)
            #expect(listed.status == .ok)
            #expect(listed.text == "[]", "nothing was stored: \(listed.text)")
            let unknownKind = try await client.send(
                .post, "/api/v1/push/sources", token: ada, json: #"{"name":"x","kind":"pigeon"}"#)
            #expect(unknownKind.status == .badRequest, "\(unknownKind.text)")
            #expect(unknownKind.errorFields == ["kind"])
        }
    }

    @Test func removingOrTestingAnUnknownSourceIs404() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let removed = try await client.send(.delete, "/api/v1/push/sources/nope", token: ada)
            #expect(removed.status == .notFound, "\(removed.text)")
            #expect(removed.errorMessage.contains("nope"))
            let tested = try await client.send(
                .post, "/api/v1/push/sources/nope/test", token: ada, json: #"{"user":"joe"}"#)
            #expect(tested.status == .notFound, "\(tested.text)")
        }
    }

    @Test func theVAPIDKeyIs404WithoutAWebPushSource() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let none = try await client.send(.get, "/api/v1/push/vapid-public-key", token: joe)
            #expect(none.status == .notFound, "\(none.text)")
            #expect(none.errorMessage.contains("no Web Push source"), "\(none.errorMessage)")
            #expect(none.errorMessage.contains("push-sources add webpush"), "\(none.errorMessage)")
            let named = try await client.send(.get, "/api/v1/push/vapid-public-key?source=browsers", token: joe)
            #expect(named.status == .notFound)
            #expect(named.errorMessage.contains("\"browsers\""), "\(named.errorMessage)")
            let anonymous = try await client.send(.get, "/api/v1/push/vapid-public-key")
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func aWebPushSourceIs201AndBrowsersGetItsPublicKey() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let created = try await client.send(
                .post, "/api/v1/push/sources", token: ada,
                json: #"{"name":"browsers","kind":"webpush","subject":"mailto:ops@example.org"}"#)
            #expect(created.status == .created, "\(created.text)")
            let details = try #require(created.object["details"] as? [String: Any])
            let publicKey = try #require(details["publicKey"] as? String)
            #expect((created.object["fingerprint"] as? String)?.count == 64)

            let key = try await client.send(.get, "/api/v1/push/vapid-public-key", token: joe)
            #expect(key.status == .ok, "\(key.text)")
            #expect(key.object["publicKey"] as? String == publicKey)
            #expect(key.object["source"] as? String == "browsers", "\(key.text)")
        }
    }

    @Test func aLocationRequestIsForAdministratorsAndNeedsAPhoneToAsk() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let forbidden = try await client.send(
                .post, "/api/v1/location-requests", token: joe, json: #"{"user":"joe"}"#)
            #expect(forbidden.status == .forbidden)
            let unknown = try await client.send(
                .post, "/api/v1/location-requests", token: ada, json: #"{"user":"zed"}"#)
            #expect(unknown.status == .notFound, "\(unknown.text)")
            let noPhone = try await client.send(
                .post, "/api/v1/location-requests", token: ada, json: #"{"user":"joe","reason":"roll call"}"#)
            #expect(noPhone.status == .badRequest, "\(noPhone.text)")
            #expect(noPhone.errorFields == ["user"])
            #expect(noPhone.errorMessage.contains("push-sources add"), "\(noPhone.errorMessage)")
            let none = try await client.send(.get, "/api/v1/deliveries", token: ada)
            #expect(none.text == "[]", "nothing was queued: \(none.text)")
        }
    }

    @Test func aWebDeviceMustGiveItsSubscriptionAndNothingElseIsStored() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let refusals: [(token: String, field: String)] = [
                (#""token":"t","#, "token"),
                ("", "token"),
                (
                    #""token":"{\"endpoint\":\"http://push.example.org/1\",\"keys\":{\"p256dh\":\"x\",\"auth\":\"y\"}}","#,
                    "token.endpoint"
                ),
            ]
            for refusal in refusals {
                let refused = try await client.send(
                    .post, "/api/v1/devices", token: joe,
                    json: #"{"deviceId":"browser",\#(refusal.token)"deviceName":"Firefox","platform":"web"}"#)
                #expect(refused.status == .badRequest, "\(refused.text)")
                #expect(refused.errorFields == [refusal.field], "\(refused.text)")
            }
            let none = try await client.send(.get, "/api/v1/devices", token: joe)
            #expect(none.text == "[]", "nothing was stored: \(none.text)")

            let subscription = WebPushTestSubscription.json()
            let body = try JSONSerialization.data(withJSONObject: [
                "deviceId": "browser", "deviceName": "Firefox", "platform": "web", "token": subscription,
            ])
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe, json: String(decoding: body, as: UTF8.self))
            #expect(registered.status == .created, "\(registered.text)")
            #expect(registered.object["token"] as? String == subscription)
        }
    }

    @Test(arguments: [
        ("--key-file", "key"), ("--key-id", "keyId"), ("--team-id", "teamId"), ("--certificate", "certificate"),
        ("--password-stdin", "password"), ("--service-account", "serviceAccount"), ("--topic", "topic"),
        ("--subject", "subject"), ("--endpoint", "endpoint"), ("kind", "kind"),
    ])
    func optionsAreNamedAsBodyMembers(_ option: String, _ member: String) {
        #expect(APIError.member(for: option) == member)
    }
}

/// `/api/v1/messages/{id}/deliveries` and `/api/v1/deliveries`.
@Suite struct DeliveriesRoutesTests {
    @Test func aRecipientSeesTheirOwnAnotherUserDoesNot() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            _ = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"phone","deviceName":"Pixel","platform":"fcm","token":"t"}"#)
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"T","body":"B","payload":\#(colourPayload)}"#)
            let id = try #require((sent.object["messageIds"] as? [String])?.first)

            let own = try await client.send(.get, "/api/v1/messages/\(id)/deliveries", token: joe)
            #expect(own.status == .ok, "\(own.text)")
            #expect(own.json is [Any], "\(own.text)")
            let other = try await client.send(.get, "/api/v1/messages/\(id)/deliveries", token: ann)
            #expect(other.status == .notFound, "\(other.text)")
            #expect(other.errorMessage.lowercased().contains("you have no message \(id.lowercased())"))
            let admin = try await client.send(.get, "/api/v1/messages/\(id)/deliveries", token: ada)
            #expect(admin.status == .ok, "\(admin.text)")
            // An administrator of another namespace is told there is no such message, as anyone else is.
            let eve = try await client.login("eve", namespace: "other")
            let elsewhere = try await client.send(.get, "/api/v1/messages/\(id)/deliveries", token: eve)
            #expect(elsewhere.status == .notFound, "\(elsewhere.text)")
            #expect(elsewhere.errorMessage.contains("namespace other"), "\(elsewhere.text)")
            let notAnId = try await client.send(.get, "/api/v1/messages/42/deliveries", token: joe)
            #expect(notAnId.status == .badRequest)
            #expect(notAnId.errorFields == ["id"])
        }
    }

    @Test func theNamespacesDeliveriesAreForAdministrators() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let forbidden = try await client.send(.get, "/api/v1/deliveries", token: joe)
            #expect(forbidden.status == .forbidden)
            let all = try await client.send(.get, "/api/v1/deliveries?user=joe&status=pending", token: ada)
            #expect(all.status == .ok, "\(all.text)")
            #expect(all.text == "[]")
            let badStatus = try await client.send(.get, "/api/v1/deliveries?status=lost", token: ada)
            #expect(badStatus.status == .badRequest)
            #expect(badStatus.errorFields == ["status"])
            let badId = try await client.send(.get, "/api/v1/deliveries?messageId=42", token: ada)
            #expect(badId.status == .badRequest)
            #expect(badId.errorFields == ["messageId"])
            let nobody = try await client.send(.get, "/api/v1/deliveries?user=jo", token: ada)
            #expect(nobody.status == .badRequest, "\(nobody.text)")
            #expect(nobody.errorFields == ["user"])
            #expect(nobody.errorMessage == "no user named jo in namespace default", "\(nobody.text)")
        }
    }
}
