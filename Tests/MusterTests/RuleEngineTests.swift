import EventLog
import EventLogTesting
import Forms
import Foundation
import Geo
import Muster
import MusterWire
import Testing

/// Seed 004's area rule, condition by condition, with the time given on each report.
@Suite struct RuleEngineTests {
    /// Monday 2026-11-23, 10:00 in Paris.
    static let monday = RulesWorld.paris("2026-11-23T10:00:00")

    static func notify(_ id: String = "r", trigger: String = "on_entry", text: String = "Welcome!") -> AreaRule {
        AreaRule(id: id, trigger: trigger, action: AreaRule.Action(notifyUser: text))
    }

    @Test func enteringTheSeedsShopNotifiesTheUserWithTheCouponPage() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let result = try await Areas(log: world.log).importAreas(Data(seedGeofences.utf8))
        #expect(result.defined == ["52", "35"])
        // Monday 25 November 2013, 10:00 in Paris: within the shop's validity and opening hours.
        let at = RulesWorld.paris("2013-11-25T10:00:00")
        let evaluation = try await world.engine.report(
            RuleEngine.LocationReport(
                user: "ada", deviceId: "phone", latitude: 48.87621805, longitude: 2.32686415, accuracy: 5, at: at))
        #expect(evaluation.transitions == [LocationAnswer.Transition(area: "35", trigger: "on_entry")])
        let outcome = try #require(evaluation.outcome("32"))
        #expect(outcome.fired)
        let inbox = try world.inbox()
        #expect(inbox.map(\.body) == ["Venez découvrir nos offres !"])
        #expect(inbox.first?.title == "demo-shop-2--10--rue-d-amsterdam")
        let message = try #require(
            try Notifications(log: world.log).message(id: inbox[0].messageId, user: "ada"))
        let payload = Payload.parse(message.payload)
        #expect(payload.validate().isValid)
        #expect(String(decoding: message.payload, as: UTF8.self).contains("webcoupon"))
    }

    @Test func aRuleWithoutConditionsFiresOnEveryEntryAndOnlyForItsTrigger() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let shop = RulesWorld.shop(rules: [Self.notify("in"), Self.notify("out", trigger: "on_exit", text: "Bye")])
        try await Areas(log: world.log).define([shop])
        let entered = try await world.enter(shop, at: Self.monday)
        #expect(entered.outcomes.map(\.rule) == ["in"])
        let left = try await world.leave(shop, at: Self.monday + 60)
        #expect(left.transitions == [LocationAnswer.Transition(area: "shop", trigger: "on_exit")])
        #expect(left.outcome("out")?.fired == true)
        #expect(try world.inbox().map(\.body) == ["Welcome!", "Bye"])
    }

    @Test func minAndMaxEventsCountEveryEntry() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.minEvents = 2
        rule.maxEvents = 3
        let shop = RulesWorld.shop(rules: [rule])
        try await Areas(log: world.log).define([shop])
        var fired: [Bool] = []
        var reasons: [String] = []
        for visit in 0..<4 {
            let at = Self.monday + Double(visit) * 600
            let outcome = try #require(try await world.enter(shop, at: at).outcome("r"))
            fired.append(outcome.fired)
            reasons.append(outcome.reason)
            _ = try await world.leave(shop, at: at + 300)
        }
        #expect(fired == [false, true, true, false])
        #expect(reasons[0].contains("min_events is 2"))
        #expect(reasons[3].contains("max_events is 3"))
        #expect(try RuleCounters(log: world.log).counters().first?.count == 4)
    }

    @Test func aMaximumOnceReachedHoldsAcrossARestartAndARebuild() async throws {
        var world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.maxEvents = 1
        let shop = RulesWorld.shop(rules: [rule])
        try await Areas(log: world.log).define([shop])
        #expect(try await world.enter(shop, at: Self.monday).outcome("r")?.fired == true)
        _ = try await world.leave(shop, at: Self.monday + 60)
        try world.restart()
        try await world.log.rebuild([RulesProjection.name])
        let again = try await world.enter(shop, at: Self.monday + 120)
        #expect(again.outcome("r")?.fired == false)
        #expect(again.outcome("r")?.reason.contains("max_events is 1") == true)
        #expect(try world.inbox().count == 1)
    }

    @Test func validityAndOpeningHoursAreCheckedInTheAreasTimeZone() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var shop = RulesWorld.shop(rules: [Self.notify()])
        shop.start = RulesWorld.paris("2026-11-23T09:00:00")
        shop.end = RulesWorld.paris("2026-11-30T00:00:00")
        // Open 09:00–19:00 on weekdays, closed at weekends.
        var week: [Weekday: DailyHours] = [:]
        for day in [Weekday.mon, .tue, .wed, .thu, .fri] { week[day] = DailyHours(open: 32400, close: 68400) }
        shop.schedule = OpeningHours(week: week)
        try await Areas(log: world.log).define([shop])
        let cases: [(String, Bool, String)] = [
            ("2026-11-23T08:30:00", false, "before the area's start"),
            ("2026-11-23T20:00:00", false, "outside opening hours"),
            ("2026-11-28T10:00:00", false, "outside opening hours"),
            ("2026-11-24T09:00:00", true, "notified"),
            ("2026-12-01T10:00:00", false, "after the area's end"),
        ]
        for (i, (local, fired, reason)) in cases.enumerated() {
            let at = RulesWorld.paris(local)
            let outcome = try #require(try await world.enter(shop, at: at, device: "d\(i)").outcome("r"))
            #expect(outcome.fired == fired, "\(local)")
            #expect(outcome.reason.contains(reason), "\(local): \(outcome.reason)")
        }
    }

    @Test func theDailyQuotaCountsInTheUsersTimeZoneAndRollsOverAtTheirMidnight() async throws {
        let world = try await RulesWorld(timeZone: "America/New_York")
        defer { world.remove() }
        try await Settings(log: world.log).set(.dailyNotificationLimit, to: "2")
        let shop = RulesWorld.shop(rules: [Self.notify()])
        try await Areas(log: world.log).define([shop])
        // 22:00–23:40 in New York on the 23rd, then 00:10 on the 24th (05:10 UTC).
        let evening = UbuduFormat.parseDate("2026-11-23T22:00:00-05:00")!
        var fired: [Bool] = []
        for visit in 0..<3 {
            fired.append(try await world.enter(shop, at: evening + Double(visit) * 1200).outcome("r")!.fired)
            _ = try await world.leave(shop, at: evening + Double(visit) * 1200 + 600)
        }
        let refused = try await world.enter(shop, at: evening + 6000)
        #expect(fired == [true, true, false])
        #expect(refused.outcome("r")?.reason.contains("daily notification limit") == true)
        _ = try await world.leave(shop, at: evening + 6600)
        let nextDay = UbuduFormat.parseDate("2026-11-24T00:10:00-05:00")!
        #expect(try await world.enter(shop, at: nextDay).outcome("r")?.fired == true)
        let counters = RuleCounters(log: world.log)
        #expect(try counters.quota(user: "ada", day: "2026-11-23") == 2)
        #expect(try counters.quota(user: "ada", day: "2026-11-24") == 1)
    }

    @Test func groupCountersAddUpAcrossTheAreasOfAGroup() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.maxGroupEvents = 2
        let a = RulesWorld.shop("a", latitude: 48.80, group: "chain", rules: [rule])
        let b = RulesWorld.shop("b", latitude: 48.90, group: "chain", rules: [rule])
        try await Areas(log: world.log).define([a, b])
        #expect(try await world.enter(a, at: Self.monday).outcome("r")?.fired == true)
        #expect(try await world.enter(b, at: Self.monday + 600).outcome("r")?.fired == true)
        let third = try await world.enter(a, at: Self.monday + 1200)
        #expect(third.outcome("r")?.fired == false)
        #expect(third.outcome("r")?.reason.contains("max_group_events is 2") == true)
    }

    @Test func aLatchedEventWaitsAndANewerOneSupersedesIt() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.latchTime = 10
        let shop = RulesWorld.shop(rules: [rule])
        try await Areas(log: world.log).define([shop])
        let first = try await world.enter(shop, at: Self.monday)
        #expect(first.outcome("r")?.reason.contains("waiting for the latch time (10 s") == true)
        // Out and back in within the latch time: the first entry is ignored, the timeout restarts.
        let left = try await world.leave(shop, at: Self.monday + 4)
        #expect(left.outcome("r")?.reason.hasPrefix("superseded: another event for the area (on_exit") == true)
        #expect(left.outcome("r")?.fired == false)
        _ = try await world.enter(shop, at: Self.monday + 8)
        #expect(try await world.engine.fireDueLatches(now: Self.monday + 17).outcomes.isEmpty)
        let fired = try await world.engine.fireDueLatches(now: Self.monday + 18)
        #expect(fired.outcome("r")?.fired == true)
        #expect(try world.inbox().count == 1)
        #expect(try RuleCounters(log: world.log).counters().first?.count == 1)
        #expect(try world.engine.nextLatchEnd() == nil)
    }

    /// A latch whose user or area went meanwhile ends without notifying anyone, saying which went.
    @Test(arguments: [
        ("user", "the user was removed before the latch time ended"),
        ("area", "the area or rule was removed before its latch time ended"),
    ])
    func aLatchWhoseUserOrAreaWentEndsWithoutANotification(removed: String, reason: String) async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.latchTime = 10
        let shop = RulesWorld.shop(rules: [rule])
        try await Areas(log: world.log).define([shop])
        _ = try await world.enter(shop, at: Self.monday)
        if removed == "user" {
            try await Directory(log: world.log).removeUser("ada")
        } else {
            try await Areas(log: world.log).remove(id: shop.id)
        }

        let ended = try await world.engine.fireDueLatches(now: Self.monday + 10)

        #expect(ended.outcome("r")?.fired == false)
        #expect(ended.outcome("r")?.reason == reason)
        #expect(try world.log.read { try $0.events(EventQuery(type: PayloadSent.type)) }.isEmpty)
        #expect(try world.engine.nextLatchEnd() == nil)
    }

    @Test func aLatchIsReArmedAfterARestart() async throws {
        var world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.latchTime = 5
        let shop = RulesWorld.shop(rules: [rule])
        try await Areas(log: world.log).define([shop])
        _ = try await world.enter(shop, at: Self.monday)
        try world.restart()
        let due = try #require(try world.engine.nextLatchEnd())
        #expect(due == Int64((Self.monday.timeIntervalSince1970 + 5) * 1_000_000))
        let fired = try await world.engine.fireDueLatches(now: Self.monday + 5)
        #expect(fired.outcome("r")?.fired == true)
        #expect(try world.inbox().count == 1)
    }

    @Test func theNextReportOfTheDeviceFiresItsEndedLatchesFirst() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.latchTime = 3
        let shop = RulesWorld.shop(rules: [rule])
        try await Areas(log: world.log).define([shop])
        _ = try await world.enter(shop, at: Self.monday)
        let later = try await world.enter(shop, at: Self.monday + 30)
        #expect(later.transitions.isEmpty)
        #expect(later.outcome("r")?.fired == true)
    }

    @Test func aBeaconRuleFiresOnlyWithinItsMaximumProximity() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.maximumProximity = .near
        let region = Area(
            id: "counter", region: .beacon(proximityUUID: "F2A74FC4-7625-44DB-9B08-CB7E130B2029", major: 1, minor: nil),
            rules: [rule])
        try await Areas(log: world.log).define([region])
        func sight(_ rssi: Int, _ device: String, _ at: Date) async throws -> LocationAnswer {
            try await world.engine.report(
                RuleEngine.BeaconReport(
                    user: "ada", deviceId: device, proximityUUID: "f2a74fc4-7625-44db-9b08-cb7e130b2029", major: 1,
                    minor: 9, rssi: rssi, measuredPower: -59, at: at))
        }
        let far = try await sight(-90, "far-phone", Self.monday)
        #expect(far.transitions == [LocationAnswer.Transition(area: "counter", trigger: "on_entry")])
        #expect(far.outcome("r")?.reason == "beacon proximity far is beyond maximum_proximity near")
        let near = try await sight(-62, "near-phone", Self.monday)
        #expect(near.outcome("r")?.fired == true)
        // Still in range: no new transition; silent for more than 30 s: left.
        #expect(try await sight(-62, "near-phone", Self.monday + 10).transitions.isEmpty)
        let other = try await world.engine.report(
            RuleEngine.BeaconReport(
                user: "ada", deviceId: "near-phone", proximityUUID: "00000000-0000-0000-0000-000000000001", major: 1,
                minor: 1, rssi: -60, at: Self.monday + 60))
        #expect(other.transitions == [LocationAnswer.Transition(area: "counter", trigger: "on_exit")])
        // The far phone reports nothing more: the timer takes it out after 30 s of silence.
        #expect(try await world.engine.expireBeaconRegions(now: Self.monday + 29).transitions.isEmpty)
        let silent = try await world.engine.expireBeaconRegions(now: Self.monday + 31)
        #expect(silent.transitions == [LocationAnswer.Transition(area: "counter", trigger: "on_exit")])
        #expect(try await world.engine.expireBeaconRegions(now: Self.monday + 90).transitions.isEmpty)
    }

    @Test func aGPSFixThirtySecondsAfterTheLastSightingLeavesTheBeaconRegion() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let region = Area(
            id: "counter", region: .beacon(proximityUUID: "F2A74FC4-7625-44DB-9B08-CB7E130B2029", major: 1, minor: nil),
            rules: [Self.notify()])
        try await Areas(log: world.log).define([region])
        let entered = try await world.engine.report(
            RuleEngine.BeaconReport(
                user: "ada", deviceId: "phone", proximityUUID: "F2A74FC4-7625-44DB-9B08-CB7E130B2029", major: 1,
                minor: 9, rssi: -62, measuredPower: -59, at: Self.monday))
        #expect(entered.transitions == [LocationAnswer.Transition(area: "counter", trigger: "on_entry")])
        func fix(_ seconds: Double) async throws -> LocationAnswer {
            try await world.engine.report(
                RuleEngine.LocationReport(
                    user: "ada", deviceId: "phone", latitude: 0, longitude: 0, accuracy: 5, at: Self.monday + seconds))
        }
        // Seen 25 s ago: still inside. Not seen for 35 s: the fix takes the device out, as the timer would.
        #expect(try await fix(25).transitions.isEmpty)
        #expect(try await fix(35).transitions == [LocationAnswer.Transition(area: "counter", trigger: "on_exit")])
        #expect(try await fix(60).transitions.isEmpty)
    }

    @Test func amongSeveralBeaconsOnlyTheClearlyNearestTriggers() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let uuid = "F2A74FC4-7625-44DB-9B08-CB7E130B2029"
        let shelves = ["1", "2"].map { minor in
            Area(
                id: "shelf-\(minor)", region: .beacon(proximityUUID: uuid, major: 7, minor: Int(minor)),
                rules: [Self.notify("r\(minor)", text: "Shelf \(minor)")])
        }
        try await Areas(log: world.log).define(shelves)
        func sight(_ minor: Int, _ rssi: Int, _ seconds: Double) async throws -> LocationAnswer {
            try await world.engine.report(
                RuleEngine.BeaconReport(
                    user: "ada", deviceId: "phone", proximityUUID: uuid, major: 7, minor: minor, rssi: rssi,
                    at: Self.monday + seconds))
        }
        // Shelf 1 alone: nearest. Shelf 2 a little stronger: not clearly, nothing happens.
        #expect(
            try await sight(1, -70, 0).transitions == [LocationAnswer.Transition(area: "shelf-1", trigger: "on_entry")])
        let close = try await sight(2, -67, 1)
        #expect(close.transitions.isEmpty)
        #expect(close.ignored?.hasPrefix("the nearest beacon is still") == true)
        // Shelf 2 clearly stronger (smoothed over its readings): hand-over.
        let handedOver = try await sight(2, -58, 2).transitions + sight(2, -57, 3).transitions
        #expect(handedOver == [LocationAnswer.Transition(area: "shelf-2", trigger: "on_entry")])
        #expect(try world.inbox().map(\.body) == ["Shelf 1", "Shelf 2"])
    }

    @Test func aDeviceReportedEntryRunsTheRulesOnceAndMinGroupEventsWaitsForTheGroup() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        var rule = Self.notify()
        rule.minGroupEvents = 2
        let a = RulesWorld.shop("a", latitude: 48.80, group: "chain", rules: [rule])
        let b = RulesWorld.shop("b", latitude: 48.90, group: "chain", rules: [rule])
        try await Areas(log: world.log).define([a, b])
        func report(_ area: String, _ trigger: String, _ seconds: Double) async throws -> LocationAnswer {
            try await world.engine.report(
                RuleEngine.TransitionReport(
                    user: "ada", deviceId: "phone", area: area, trigger: trigger, at: Self.monday + seconds))
        }
        let first = try await report("a", "on_entry", 0)
        #expect(first.outcome("r")?.reason == "event 1 in group chain, min_group_events is 2")
        #expect(
            try await report("a", "on_entry", 10).ignored == "device phone is already inside area a: nothing changed")
        #expect(try await report("b", "on_entry", 20).outcome("r")?.fired == true)
        #expect(
            try await report("b", "on_exit", 30).transitions == [
                LocationAnswer.Transition(area: "b", trigger: "on_exit")
            ])
        let unknown = await #expect(throws: MusterError.self) { try await report("nowhere", "on_entry", 40) }
        #expect(unknown?.message.hasPrefix("area: no area") == true)
        let sideways = await #expect(throws: MusterError.self) { try await report("a", "sideways", 50) }
        #expect(sideways?.message.hasPrefix("trigger:") == true)
    }

    @Test func automaticUserNotificationsOffHandsTheNoticeToTheApplication() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        try await Settings(log: world.log).set(.automaticUserNotifications, to: "false")
        let shop = RulesWorld.shop(rules: [Self.notify()])
        try await Areas(log: world.log).define([shop])
        let outcome = try #require(try await world.enter(shop, at: Self.monday).outcome("r"))
        #expect(outcome.fired)
        #expect(outcome.reason.contains("automaticUserNotifications is false"))
        #expect(try world.inbox().isEmpty)
    }

    @Test func badReportsWriteNothing() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let head = world.log.head
        let bad: [RuleEngine.LocationReport] = [
            .init(user: "ada", deviceId: "p", latitude: 95, longitude: 0),
            .init(user: "ada", deviceId: "p", latitude: 0, longitude: 200),
            .init(user: "ada", deviceId: "p", latitude: 0, longitude: 0, accuracy: -3),
            .init(user: "nobody", deviceId: "p", latitude: 0, longitude: 0),
        ]
        for report in bad {
            let error = await #expect(throws: MusterError.self) { try await world.engine.report(report) }
            #expect(error?.code == .invalidArgument)
        }
        #expect(world.log.head == head)
    }
}
