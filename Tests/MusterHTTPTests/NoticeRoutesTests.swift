import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `/devices/{id}/notices` and `/notices/{id}/perform|dismiss`: the app's side of a rule whose notification the
/// namespace leaves to it.
@Suite struct NoticeRoutesTests {
    static let location =
        #"{"deviceId":"phone","lat":48.87,"lng":2.33,"accuracy":8,"at":"2026-11-23T10:00:00+01:00"}"#

    /// ada defines the shop and turns automatic user notifications off; joe walks in with his phone.
    static func handOne(_ client: APITester.Client, _ ada: String, _ joe: String) async throws -> String {
        let put = try await client.send(.put, "/api/v1/geofences/shop", token: ada, json: AreaRoutesTests.shop)
        #expect(put.status == .created, "\(put.text)")
        let off = try await client.send(
            .put, "/api/v1/settings/automaticUserNotifications", token: ada, json: #"{"value":"false"}"#)
        #expect(off.status == .ok, "\(off.text)")
        let located = try await client.send(.post, "/api/v1/locations", token: joe, json: Self.location)
        #expect(located.status == .ok, "\(located.text)")
        let notices = try await client.send(.get, "/api/v1/devices/phone/notices", token: joe)
        #expect(notices.status == .ok, "\(notices.text)")
        #expect(notices.array.count == 1)
        let notice = try #require(notices.array.first)
        #expect(notice["action"] as? String == "notifyUser")
        #expect(notice["body"] as? String == "Welcome to the shop")
        #expect(notice["openURL"] as? String == "https://shop.example/shop?d=phone")
        for member in OpenAPITests.requiredMembers(OpenAPITests.schema("AreaNotification")) {
            #expect(notice[member] != nil, "AreaNotification.\(member)")
        }
        return try #require(notice["id"] as? String)
    }

    @Test func theOwnerPerformsAHandedNoticeOnceAndItReachesTheInbox() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let id = try await Self.handOne(client, ada, joe)
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.isEmpty)
            #expect(try await client.send(.post, "/api/v1/notices/\(id)/perform", token: ada).status == .notFound)
            let performed = try await client.send(.post, "/api/v1/notices/\(id)/perform", token: joe)
            #expect(performed.status == .ok, "\(performed.text)")
            #expect(performed.object["state"] as? String == "performed")
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.array.map { $0["body"] as? String } == ["Welcome to the shop"])
            #expect(
                (performed.object["messageId"] as? String)?.lowercased()
                    == (inbox.array.first?["messageId"] as? String)?.lowercased())
            let again = try await client.send(.post, "/api/v1/notices/\(id)/perform", token: joe)
            #expect(again.status == .conflict, "\(again.text)")
            #expect(try await client.send(.get, "/api/v1/devices/phone/notices", token: joe).array.isEmpty)
            let audit = try await client.send(.get, "/api/v1/audit?area=shop&rule=hello", token: ada)
            #expect(
                audit.array.map { $0["what"] as? String } == [
                    "ruleEvaluated", "areaNotificationHanded", "areaNotificationPerformed",
                ])
        }
    }

    @Test func aDismissedNoticeSendsNothingAndABadIdIsNamed() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let id = try await Self.handOne(client, ada, joe)
            let dismissed = try await client.send(.post, "/api/v1/notices/\(id)/dismiss", token: joe)
            #expect(dismissed.status == .ok, "\(dismissed.text)")
            #expect(dismissed.object["state"] as? String == "dismissed")
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.isEmpty)
            #expect(try await client.send(.post, "/api/v1/notices/\(id)/perform", token: joe).status == .conflict)
            let bad = try await client.send(.post, "/api/v1/notices/nope/dismiss", token: joe)
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("notice id nope is not a UUID"))
        }
    }

    /// Seed 004's trace logging toggle, for one device, by its own user.
    @Test func aDeviceTurnsItsTraceLoggingOnAndBackToTheNamespace() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            let shown = try await client.send(.get, "/api/v1/devices/phone/trace-logging", token: joe)
            #expect(shown.status == .ok, "\(shown.text)")
            #expect(shown.text.contains(#""device":null"#))
            #expect(shown.object["effective"] as? Bool == false)
            for member in OpenAPITests.requiredMembers(OpenAPITests.schema("DeviceTraceLogging")) {
                #expect(shown.text.contains("\"\(member)\":"), "DeviceTraceLogging.\(member)")
            }
            let on = try await client.send(
                .put, "/api/v1/devices/phone/trace-logging", token: joe, json: #"{"enabled":true}"#)
            #expect(on.status == .ok, "\(on.text)")
            #expect(on.object["device"] as? Bool == true && on.object["effective"] as? Bool == true)
            // Another user's device of the same id keeps following the namespace.
            let other = try await client.send(.get, "/api/v1/devices/phone/trace-logging", token: ann)
            #expect(other.object["effective"] as? Bool == false)
            let back = try await client.send(
                .put, "/api/v1/devices/phone/trace-logging", token: joe, json: #"{"enabled":null}"#)
            #expect(back.text.contains(#""device":null"#) && back.object["effective"] as? Bool == false)
        }
    }

    @Test func aTraceLoggingBodyWithoutEnabledIsRefusedNamingIt() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            for body in ["{}", #"{"enabled":"yes"}"#] {
                let refused = try await client.send(
                    .put, "/api/v1/devices/phone/trace-logging", token: joe, json: body)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
                #expect(refused.text.contains("enabled"), "\(body): \(refused.text)")
            }
            let shown = try await client.send(.get, "/api/v1/devices/phone/trace-logging", token: joe)
            #expect(shown.text.contains(#""device":null"#))
            let unauthenticated = try await client.send(.get, "/api/v1/devices/phone/trace-logging", token: nil)
            #expect(unauthenticated.status == .unauthorized)
        }
    }
}
