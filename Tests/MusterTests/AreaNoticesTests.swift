import EventLog
import Foundation
import Muster
import MusterWire
import Testing

/// Seed 004's application side: with automatic sending off, a fired rule's notification (or server notification
/// URL) is handed to the device's application, which has the server perform it or dismisses it.
@Suite(.timeLimit(.minutes(5))) struct AreaNoticesTests {
    static let monday = RulesWorld.paris("2026-11-23T10:00:00")

    static func world(_ setting: Setting = .automaticUserNotifications) async throws -> RulesWorld {
        let world = try await RulesWorld()
        try await Settings(log: world.log).set(setting, to: "false")
        return world
    }

    static func shop(_ rule: AreaRule) -> Area { RulesWorld.shop(rules: [rule]) }

    static let welcome = AreaRule(
        id: "r", trigger: "on_entry",
        action: AreaRule.Action(notifyUser: "Welcome!", openURL: "https://shop.example/{id}/coupon"))

    @Test func withAutomaticUserNotificationsOffAFiredRuleHandsANoticeAndSendsNothing() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        try await Areas(log: world.log).define([Self.shop(Self.welcome)])
        let answer = try await world.enter(Self.shop(Self.welcome), at: Self.monday)
        let outcome = try #require(answer.outcome("r"))
        #expect(outcome.fired)
        #expect(outcome.reason.contains("handed to the application as area notification"))
        #expect(try world.inbox().isEmpty)
        let pending = try AreaNotices(engine: world.engine).pending(user: "ada", deviceId: "phone")
        #expect(pending.count == 1)
        #expect(pending.first?.action == .notifyUser)
        #expect(pending.first?.body == "Welcome!")
        #expect(pending.first?.openURL == "https://shop.example/shop/coupon")
        #expect(try AreaNotices(engine: world.engine).pending(user: "ada", deviceId: "tablet").isEmpty)
        let audit = try Audit(log: world.log).entries(Audit.Filter(area: "shop"))
        #expect(audit.map(\.what).contains(.areaNotificationHanded))
    }

    /// ada's phone and tablet are iPhones, her browser takes Web Push; sources for both.
    static func withDevices(_ world: RulesWorld) async throws {
        let devices: [(String, PushTargetRegistered.Platform)] = [
            ("phone", .apns), ("tablet", .apns), ("browser", .web), ("sensor", .mqtt),
        ]
        for (device, platform) in devices {
            try await Directory(log: world.log).register(
                PushTargetRegistered(
                    user: "ada", deviceId: device, deviceName: device, platform: platform, token: "ab",
                    publishTopic: platform == .mqtt ? "sensor/out" : nil))
        }
        let sources = PushSources(log: world.log)
        try await sources.configure("web", kind: .webpush, details: [], endpoint: nil, secret: [1])
        try await sources.configure("ios", kind: .apns, details: [], endpoint: nil, secret: [2])
    }

    @Test func aHandedNoticeIsQueuedForPushToTheDeviceItWasHandedToOnly() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        try await Self.withDevices(world)
        try await Areas(log: world.log).define([Self.shop(Self.welcome)])
        _ = try await world.enter(Self.shop(Self.welcome), at: Self.monday)
        _ = try await world.enter(Self.shop(Self.welcome), at: Self.monday, device: "browser")
        let notices = AreaNotices(engine: world.engine)
        for device in ["phone", "browser"] {
            let notice = try #require(try notices.pending(user: "ada", deviceId: device).first)
            let queued = try Deliveries(log: world.log).list(messageId: notice.noticeId)
            #expect(queued.map(\.deviceId) == [device])
            #expect(queued.first?.kind == .areaNotice)
            #expect(queued.first?.status == .pending)
        }
    }

    @Test func aServerNoticesSilentPushGoesToPhonesNeverToABrowser() async throws {
        let world = try await Self.world(.automaticServerNotifications)
        defer { world.remove() }
        try await Self.withDevices(world)
        let rule = AreaRule(
            id: "r", trigger: "on_entry", action: AreaRule.Action(notifyServer: "http://127.0.0.1:9/hook/{id}"))
        try await Areas(log: world.log).define([Self.shop(rule)])
        for device in ["phone", "browser"] {
            _ = try await world.enter(Self.shop(rule), at: Self.monday, device: device)
        }
        let notices = AreaNotices(engine: world.engine)
        let phone = try #require(try notices.pending(user: "ada", deviceId: "phone").first)
        let browser = try #require(try notices.pending(user: "ada", deviceId: "browser").first)
        #expect(try Deliveries(log: world.log).list(messageId: phone.noticeId).map(\.deviceId) == ["phone"])
        #expect(try Deliveries(log: world.log).list(messageId: browser.noticeId).isEmpty)
    }

    @Test func performingSendsTheNotificationOnceAndASecondPerformIsRefused() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        try await Areas(log: world.log).define([Self.shop(Self.welcome)])
        _ = try await world.enter(Self.shop(Self.welcome), at: Self.monday)
        let notices = AreaNotices(engine: world.engine)
        let notice = try #require(try notices.pending(user: "ada", deviceId: "phone").first)
        let performed = try await notices.perform(notice.noticeId, user: "ada").performed
        let inbox = try world.inbox()
        #expect(inbox.map(\.body) == ["Welcome!"])
        #expect(performed.messageId == inbox.first?.messageId)
        #expect(try notices.pending(user: "ada", deviceId: "phone").isEmpty)
        let again = await #expect(throws: MusterError.self) { try await notices.perform(notice.noticeId, user: "ada") }
        #expect(again?.code == .conflict)
        #expect(again?.description.contains("already performed") == true)
        #expect(try world.inbox().count == 1)
        let audit = try Audit(log: world.log).entries(Audit.Filter(user: "ada", rule: "r"))
        #expect(audit.last?.what == .areaNotificationPerformed)
        #expect(audit.last?.messageId == inbox.first?.messageId)
    }

    @Test func dismissingRecordsItAndNothingIsSent() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        try await Areas(log: world.log).define([Self.shop(Self.welcome)])
        _ = try await world.enter(Self.shop(Self.welcome), at: Self.monday)
        let notices = AreaNotices(engine: world.engine)
        let notice = try #require(try notices.pending(user: "ada", deviceId: "phone").first)
        let stranger = await #expect(throws: MusterError.self) {
            try await notices.dismiss(notice.noticeId, user: "bob")
        }
        #expect(stranger?.code == .notFound)
        try await notices.dismiss(notice.noticeId, user: "ada")
        #expect(try world.inbox().isEmpty)
        #expect(try notices.pending(user: "ada", deviceId: "phone").isEmpty)
        let perform = await #expect(throws: MusterError.self) {
            try await notices.perform(notice.noticeId, user: "ada")
        }
        #expect(perform?.description.contains("already dismissed") == true)
        let audit = try Audit(log: world.log).entries(Audit.Filter(user: "ada"))
        #expect(audit.last?.what == .areaNotificationDismissed)
        #expect(audit.last?.area == "shop")
    }

    @Test func withAutomaticServerNotificationsOffTheDeviceGetsTheURLAndPerformingCallsIt() async throws {
        let world = try await Self.world(.automaticServerNotifications)
        defer { world.remove() }
        // Port 9 (discard) on loopback refuses the connection: the hook fails, and the rule is aborted.
        let rule = AreaRule(
            id: "r", trigger: "on_entry",
            action: AreaRule.Action(notifyServer: "http://127.0.0.1:9/hook/{id}/{udid}", notifyUser: "Welcome!"))
        try await Areas(log: world.log).define([Self.shop(rule)])
        let answer = try await world.enter(Self.shop(rule), at: Self.monday)
        #expect(answer.outcome("r")?.reason.contains("notify_server handed to the application") == true)
        let notices = AreaNotices(engine: world.engine)
        let notice = try #require(try notices.pending(user: "ada", deviceId: "phone").first)
        #expect(notice.action == .notifyServer)
        #expect(notice.serverURL == "http://127.0.0.1:9/hook/shop/phone")
        let (performed, continued) = try await notices.perform(notice.noticeId, user: "ada")
        #expect(performed.serverURL == "http://127.0.0.1:9/hook/shop/phone")
        #expect(continued.outcome("r")?.reason.hasPrefix("aborted") == true)
        #expect(try world.inbox().isEmpty)
    }

    /// The second entry is past max_events 1: with trace logging the device hears why nothing happened.
    /// - Parameter device: the phone's own trace logging, set before (nil: none set, it follows the namespace).
    static func secondEntryPastTheMaximum(trace: Bool, device: Bool? = nil) async throws
        -> [AreaNotices.DeviceEvent.Change]
    {
        let world = try await RulesWorld()
        defer { world.remove() }
        try await Settings(log: world.log).set(.traceLogging, to: trace ? "true" : "false")
        if let device {
            try await AreaNotices(engine: world.engine).setTraceLogging(device, user: "ada", deviceId: "phone")
        }
        var rule = AreaRule(id: "r", trigger: "on_entry", action: AreaRule.Action(notifyUser: "Welcome!"))
        rule.maxEvents = 1
        let shop = Self.shop(rule)
        try await Areas(log: world.log).define([shop])
        _ = try await world.enter(shop, at: Self.monday)
        _ = try await world.leave(shop, at: Self.monday + 60)
        let from = world.log.head + 1
        _ = try await world.enter(shop, at: Self.monday + 120)
        _ = try await world.leave(shop, at: Self.monday + 180)
        var changes: [AreaNotices.DeviceEvent.Change] = []
        for try await event in AreaNotices(engine: world.engine).deviceEvents(
            user: "ada", deviceId: "phone", from: from)
        {
            changes.append(event.change)
            if case .areaExited = event.change { break }
        }
        return changes
    }

    @Test func withTraceLoggingOnTheDeviceStreamSaysWhyTheRuleDidNotAct() async throws {
        let changes = try await Self.secondEntryPastTheMaximum(trace: true)
        let traces = changes.compactMap { change -> String? in
            if case .trace(let message, _) = change { return message }
            return nil
        }
        #expect(
            traces == [
                "not acting: rule r of geofence shop (on_entry): event 2 for this area, max_events is 1 (reached)"
            ])
        #expect(changes.contains { if case .areaEntered(let t) = $0 { t.area == "shop" } else { false } })
        #expect(changes.contains { if case .positionChanged = $0 { true } else { false } })
    }

    @Test func withTraceLoggingOffTheDeviceStreamHasNoTrace() async throws {
        let changes = try await Self.secondEntryPastTheMaximum(trace: false)
        #expect(!changes.contains { if case .trace = $0 { true } else { false } })
        #expect(changes.contains { if case .areaEntered = $0 { true } else { false } })
    }

    static func traces(_ changes: [AreaNotices.DeviceEvent.Change]) -> Int {
        changes.filter { if case .trace = $0 { true } else { false } }.count
    }

    /// Seed 004: the application allows or disallows trace logging for itself, whatever the namespace says.
    @Test func aDevicesOwnTraceLoggingWinsOverTheNamespaces() async throws {
        #expect(Self.traces(try await Self.secondEntryPastTheMaximum(trace: false, device: true)) == 1)
        #expect(Self.traces(try await Self.secondEntryPastTheMaximum(trace: true, device: false)) == 0)
    }

    @Test func aDeviceFollowsTheNamespaceUntilItChoosesAndAgainAfterItGoesBack() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let notices = AreaNotices(engine: world.engine)
        let start = try notices.traceLogging(user: "ada", deviceId: "phone")
        #expect(start.device == nil && !start.namespace && !start.effective)
        try await Settings(log: world.log).set(.traceLogging, to: "true")
        #expect(try notices.traceLogging(user: "ada", deviceId: "phone").effective)

        let head = world.log.head
        let off = try await notices.setTraceLogging(false, user: "ada", deviceId: "phone")
        #expect(off.device == false && off.namespace && !off.effective)
        #expect(world.log.head == head + 1)
        // The same choice again records nothing; another user's device with the same id is not touched.
        try await notices.setTraceLogging(false, user: "ada", deviceId: "phone")
        #expect(world.log.head == head + 1)
        #expect(try notices.traceLogging(user: "bob", deviceId: "phone").effective)

        let back = try await notices.setTraceLogging(nil, user: "ada", deviceId: "phone")
        #expect(back.device == nil && back.effective)
        #expect(try notices.traceLogging(user: "ada", deviceId: "phone") == back)
        let audit = try Audit(log: world.log).entries(Audit.Filter(user: "ada"))
            .filter { $0.what == .deviceTraceLoggingSet }.map(\.detail)
        #expect(
            audit == [
                "ada's device phone turned trace logging off",
                "ada's device phone left trace logging to the namespace's traceLogging setting",
            ])
    }

    @Test func aDeviceIdThatIsNoNameIsRefusedAndNothingIsRecorded() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let head = world.log.head
        await #expect(throws: MusterError.self) {
            try await AreaNotices(engine: world.engine).setTraceLogging(true, user: "ada", deviceId: "")
        }
        #expect(world.log.head == head)
    }

    @Test func theDeviceStreamCarriesTheHandedNotice() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        try await Areas(log: world.log).define([Self.shop(Self.welcome)])
        let from = world.log.head + 1
        _ = try await world.enter(Self.shop(Self.welcome), at: Self.monday)
        let stream = AreaNotices(engine: world.engine).deviceEvents(user: "ada", deviceId: "phone", from: from)
        for try await event in stream {
            guard case .areaNotification(let handed) = event.change else { continue }
            #expect(handed.body == "Welcome!")
            #expect(handed.title == "Shop shop")
            return
        }
        Issue.record("the stream ended without the area notification")
    }
}
