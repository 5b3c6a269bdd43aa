import Foundation
import Hummingbird
import Testing

@testable import MusterHTTP

/// Bad input is a 4xx naming what was expected, in the API's words — never a 500, never Swift's type names — and
/// leaves the log as it was.
@Suite struct RefusalStatusTests {
    /// A topic's document (read as JSON text) and a typed body (a device) alike: where the text stops being JSON,
    /// trailing commas included, which Foundation's decoder on Linux would take.
    @Test(arguments: [
        ("/api/v1/topics/x/y", #"{"#, "line 1, column 2"),
        ("/api/v1/topics/x/y", #"{"a":1} trailing"#, "line 1, column 9"),
        ("/api/v1/topics/x/y", String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "line 1"),
        ("/api/v1/devices", #"{"deviceId":"p1","deviceName":"P","#, "line 1, column 35"),
        ("/api/v1/devices", "{\n  \"deviceId\": \"p1\",\n  \"deviceName\": \"P\",\n}", "line 4, column 1"),
    ])
    func aBodyThatIsNotJSONIsA400NamingWhereItStops(path: String, body: String, place: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let head = api.log.head
            let refused = try await client.send(.post, path, token: ada, json: body)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorMessage.hasPrefix("the body is not valid JSON: \(place)"), "\(refused.text)")
            #expect(api.log.head == head)
        }
    }

    @Test func topicsWithoutATopicIsNoRouteNotAWrongMethod() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            for method in [HTTPRequest.Method.get, .post] {
                let refused = try await client.send(method, "/api/v1/topics", token: ada, json: "{}")
                #expect(refused.status == .notFound, "\(method): \(refused.text)")
                #expect(refused.headers[.allow] == nil)
            }
            // A wrong method on a known path is still a 405 naming the path's methods.
            let wrong = try await client.send(.delete, "/api/v1/topics/a", token: ada)
            #expect(wrong.status == .methodNotAllowed, "\(wrong.text)")
            #expect(wrong.headers[.allow] == "GET, POST" || wrong.headers[.allow] == "POST, GET")
        }
    }

    @Test func aNamedPayloadThatIsNotJSONIsA400() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let refused = try await client.send(.put, "/api/v1/payloads/p", token: ada, json: #"{"responseTopic":"#)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorCode == "bad_request")
            // Valid JSON that is not a valid form stays a 422.
            let invalid = try await client.send(.put, "/api/v1/payloads/p", token: ada, json: #"{"fields":[]}"#)
            #expect(invalid.status == .unprocessableContent, "\(invalid.text)")
        }
    }

    @Test func anAdministratorListingTheDocumentsOfNobodyIsTold404() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let refused = try await client.send(.get, "/api/v1/documents?user=nobody", token: ada)
            #expect(refused.status == .notFound, "\(refused.text)")
            #expect(refused.errorFields == ["user"])
            #expect(try await client.send(.get, "/api/v1/documents?user=joe", token: ada).status == .ok)
        }
    }

    @Test func anAnswersLocationOutOfRangeIsA400NamingTheMember() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let id = try await Self.sendJoeAForm(client, token: ada)
            let head = api.log.head
            for (location, member) in [
                (#"{"lat":200,"lng":10}"#, "location.lat"), (#"{"lat":1,"lng":999}"#, "location.lng"),
            ] {
                let refused = try await client.send(
                    .post, "/api/v1/messages/\(id)/response", token: joe,
                    json: #"{"deviceId":"d","location":\#(location),"values":{}}"#)
                #expect(refused.status == .badRequest, "\(refused.text)")
                #expect(refused.errorFields == [member], "\(refused.text)")
            }
            #expect(api.log.head == head)
        }
    }

    @Test func aRefusalOfOneMemberNamesItInFields() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let zone = try await client.send(
                .post, "/api/v1/users", token: ada,
                json: #"{"username":"tz","password":"longenough","timeZone":"Mars/Base"}"#)
            #expect(zone.status == .badRequest && zone.errorFields == ["timeZone"], "\(zone.text)")
            let setting = try await client.send(
                .put, "/api/v1/settings/documentQuotaPerUser", token: ada, json: #"{"value":"abc"}"#)
            #expect(setting.status == .badRequest && setting.errorFields == ["value"], "\(setting.text)")
            let nobody = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["nobody"],"title":"t","body":"b","payload":{"responseTopic":"/g","fields":[]}}"#)
            #expect(nobody.status == .badRequest && nobody.errorFields == ["to"], "\(nobody.text)")
            let joe = try await client.login("joe")
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe, json: #"{"deviceId":"p","deviceName":"x","platform":"apns"}"#)
            #expect(registered.status == .created)
            let head = api.log.head
            let empty = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"q","deviceName":"x","platform":"apns","token":""}"#)
            #expect(empty.status == .badRequest && empty.errorFields == ["token"], "\(empty.text)")
            #expect(api.log.head == head)
            let lat = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"p","lat":100,"lng":1}"#)
            #expect(lat.status == .badRequest && lat.errorFields == ["lat"], "\(lat.text)")
            // Names checked by the store's rules are named by their member too.
            let noId = try await client.send(
                .post, "/api/v1/devices", token: joe, json: #"{"deviceId":"","deviceName":"x","platform":"apns"}"#)
            #expect(noId.status == .badRequest && noId.errorFields == ["deviceId"], "\(noId.text)")
            #expect(noId.errorMessage.contains("device id must not be empty"), "\(noId.text)")
            let noTitle = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"","body":"b","payload":{"responseTopic":"/g","fields":[]}}"#)
            #expect(noTitle.status == .badRequest && noTitle.errorFields == ["title"], "\(noTitle.text)")
            // An area's members, as they are in the body: top level, and inside its rules.
            let fence = try await client.send(
                .put, "/api/v1/geofences/shop", token: ada, json: #"{"lat":91,"lng":7.8,"radius":0.1}"#)
            #expect(fence.status == .badRequest && fence.errorFields == ["lat"], "\(fence.text)")
            #expect(fence.errorMessage.hasPrefix("geofence.lat: expected a latitude"), "\(fence.text)")
            let rule = try await client.send(
                .put, "/api/v1/geofences/shop", token: ada,
                json: #"{"lat":47,"lng":7.8,"radius":0.1,"rules_actions":[{"id":"r","rule":{"max_events":"many"}}]}"#)
            #expect(
                rule.status == .badRequest && rule.errorFields == ["rules_actions[0].rule.max_events"], "\(rule.text)")
            #expect(api.log.head == head)
        }
    }

    /// Sends joe a form without fields; its message id.
    static func sendJoeAForm(_ client: APITester.Client, token: String) async throws -> String {
        let sent = try await client.send(
            .post, "/api/v1/notifications", token: token,
            json: #"{"to":["joe"],"title":"t","body":"b","payload":{"responseTopic":"/g","fields":[]}}"#)
        return try #require((sent.object["messageIds"] as? [String])?.first, "\(sent.text)")
    }

    @Test func aMistypedMemberIsToldWhatWasExpectedInTheAPIsWords() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let array = try await client.send(.post, "/api/v1/auth/token", json: "[]")
            #expect(array.errorMessage == "the body: expected a JSON object", "\(array.text)")
            let to = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":"joe","title":"t","body":"b","payload":{"responseTopic":"/g","fields":[]}}"#)
            #expect(to.errorMessage == "member to: expected a JSON array", "\(to.text)")
            let id = try await Self.sendJoeAForm(client, token: ada)
            let joe = try await client.login("joe")
            let responseId = try await client.send(
                .post, "/api/v1/messages/\(id)/response", token: joe,
                json: #"{"deviceId":"d","responseId":"abc","values":{}}"#)
            #expect(responseId.errorFields == ["responseId"], "\(responseId.text)")
            #expect(responseId.errorMessage.hasPrefix("member responseId: expected a UUID"), "\(responseId.text)")
            let kind = try await client.send(
                .post, "/api/v1/push/sources", token: ada, json: #"{"name":"s","kind":"sms"}"#)
            #expect(kind.errorMessage == #"member kind: "sms" is not one of the accepted values"#, "\(kind.text)")
        }
    }
}

/// What the app will ignore in a payload (an unknown field type, seed 000) is said to whoever sends or stores it
/// over HTTP, as the CLI says it on a data directory — the README's decided slip.
@Suite struct PayloadWarningRoutesTests {
    static let payload = #"{"responseTopic":"/a/b/c","fields":[{"id":"video1","type":"video1"}]}"#

    @Test func sendingAndStoringAPayloadWithAnUnknownFieldTypeAnswerItsWarning() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"t","body":"b","payload":\#(Self.payload)}"#)
            #expect(sent.status == .created, "\(sent.text)")
            let warnings = sent.object["warnings"] as? [String] ?? []
            #expect(warnings.count == 1, "\(sent.text)")
            #expect(warnings.first?.contains(#"type "video1" is not a known field type"#) == true)
            let stored = try await client.send(.put, "/api/v1/payloads/p", token: ada, json: Self.payload)
            #expect((stored.object["warnings"] as? [String])?.count == 1, "\(stored.text)")
            // Nothing to say: no member.
            let plain = try await client.send(
                .put, "/api/v1/payloads/q", token: ada, json: #"{"responseTopic":"/a","fields":[]}"#)
            #expect(plain.object.keys.sorted() == ["name", "replaced"], "\(plain.text)")
        }
    }

    @Test func storingARequestTemplateOrAnAreaAnswersWhatWasStoredOtherwiseThanGiven() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let request = try await client.send(
                .put, "/api/v1/requests/report", token: ada,
                json: #"{"title":"Report","body":"b","responseTopic":"/a/b","payload":\#(Self.payload)}"#)
            #expect(request.status == .ok || request.status == .created, "\(request.text)")
            let requestWarnings = request.object["warnings"] as? [String] ?? []
            #expect(requestWarnings.first?.contains(#"type "video1" is not a known field type"#) == true)
            let listed = try await client.send(.get, "/api/v1/requests", token: ada)
            #expect(!listed.text.contains("warnings"), "a warning is said once, not stored: \(listed.text)")

            let fence = try await client.send(
                .put, "/api/v1/geofences/shop", token: ada, json: #"{"lat":47.99,"lng":7.84,"radius":0.1}"#)
            #expect(fence.status == .created, "\(fence.text)")
            let fenceWarnings = fence.object["warnings"] as? [String] ?? []
            #expect(
                fenceWarnings == ["geofence.timezone: missing; the area's times are taken in UTC"], "\(fence.text)")
            let read = try await client.send(.get, "/api/v1/geofences/shop", token: ada)
            #expect(read.object["warnings"] == nil, "\(read.text)")
            let zoned = try await client.send(
                .put, "/api/v1/geofences/shop", token: ada,
                json: #"{"lat":47.99,"lng":7.84,"radius":0.1,"timezone":{"zone":"Europe/Berlin"}}"#)
            #expect(zoned.object["warnings"] == nil, "nothing to say: no member: \(zoned.text)")
        }
    }
}
