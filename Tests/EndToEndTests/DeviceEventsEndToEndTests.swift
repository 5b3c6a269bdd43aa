import Foundation
import MusterClient
import MusterWire
import Testing

/// Seed 004's application side through a real server over real sockets, driven by the Swift SDK as an app
/// would: the device's live stream tells it the area entered, the notification handed to it and, with trace
/// logging, why another rule did not act; the app has the server perform the notification.
@Suite(.timeLimit(.minutes(2))) struct DeviceEventsEndToEndTests {
    static let shop = #"""
        {"name":"Shop","lat":48.87,"lng":2.33,"radius":0.05,"timezone":{"zone":"Europe/Paris"},
         "rules_actions":[
           {"id":"hello","rule":{"trigger":"on_entry"},"action":{"notify_user":"Welcome to the shop"}},
           {"id":"regulars","rule":{"trigger":"on_entry","min_events":2},"action":{"notify_user":"Back again!"}}]}
        """#

    @Test func theDeviceStreamCarriesTheEntryTheHandedNotificationAndTheTrace() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let put = try await server.send("PUT", "api/v1/geofences/shop", token: ada, json: Self.shop)
        #expect(put.status == 201, "\(put.text)")
        let off = try await server.send(
            "PUT", "api/v1/settings/automaticUserNotifications", token: ada, json: #"{"value":"false"}"#)
        #expect(off.status == 200, "\(off.text)")

        let phone = MusterClient(serverURL: server.base)
        #expect(await phone.authWithInternal(username: "ada", password: "secret-ada").authValid)
        let head = try #require(try await server.send("GET", "healthz").object["head"] as? Int)
        var events = phone.deviceEvents(deviceId: "ada-phone", trace: true, after: String(head)).makeAsyncIterator()
        let at = ISO8601DateFormatter().date(from: "2026-11-23T09:00:00Z")
        let answer = try await phone.publishCurrentLocation(
            deviceId: "ada-phone", latitude: 48.87, longitude: 2.33, accuracy: 5, at: at)
        #expect(answer.transitions.map(\.area) == ["shop"])

        var seen: [DeviceLiveEvent] = []
        var notice: AreaNotification?
        var trace: TraceMessage?
        while notice == nil || trace == nil, let next = try await events.next() {
            seen.append(next.event)
            if case .areaNotification(let handed) = next.event { notice = handed }
            if case .trace(let message) = next.event { trace = message }
        }
        #expect(seen.contains { if case .positionChanged(let p) = $0 { p.latitude == 48.87 } else { false } })
        #expect(seen.contains { if case .areaEntered(let c) = $0 { c.area == "shop" } else { false } })
        let handed = try #require(notice)
        #expect(handed.body == "Welcome to the shop")
        #expect(handed.rule == "hello")
        #expect(trace?.rule == "regulars")
        #expect(trace?.message.contains("min_events is 2") == true)
        #expect(try await phone.inbox().isEmpty)

        let performed = try await phone.performNotice(handed.id)
        #expect(performed.state == "performed")
        #expect(try await phone.inbox().map(\.messageId) == [try #require(performed.messageId)])
        #expect(try await phone.notices(deviceId: "ada-phone").isEmpty)
        #expect(await server.stop() == 0)
    }

    /// The app allows trace logging for its own device (seed 004) and its stream, opened without `trace=`, carries
    /// why a rule did not act; the namespace's setting stays off.
    @Test func anAppThatTurnsItsTraceLoggingOnHearsWhyARuleDidNotAct() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let put = try await server.send("PUT", "api/v1/geofences/shop", token: ada, json: Self.shop)
        #expect(put.status == 201, "\(put.text)")

        let phone = MusterClient(serverURL: server.base)
        #expect(await phone.authWithInternal(username: "ada", password: "secret-ada").authValid)
        let on = try await phone.setTraceLogging(true, deviceId: "ada-phone")
        #expect(on.device == true && on.namespace == false && on.effective)
        #expect(try await phone.traceLogging(deviceId: "ada-phone") == on)
        let head = try #require(try await server.send("GET", "healthz").object["head"] as? Int)
        var events = phone.deviceEvents(deviceId: "ada-phone", after: String(head)).makeAsyncIterator()
        let at = ISO8601DateFormatter().date(from: "2026-11-23T09:00:00Z")
        _ = try await phone.publishCurrentLocation(
            deviceId: "ada-phone", latitude: 48.87, longitude: 2.33, accuracy: 5, at: at)
        var trace: TraceMessage?
        while trace == nil, let next = try await events.next() {
            if case .trace(let message) = next.event { trace = message }
        }
        #expect(trace?.rule == "regulars")
        #expect(trace?.message.contains("min_events is 2") == true)
        let back = try await phone.setTraceLogging(nil, deviceId: "ada-phone")
        #expect(back.device == nil && !back.effective)
        #expect(await server.stop() == 0)
    }
}
