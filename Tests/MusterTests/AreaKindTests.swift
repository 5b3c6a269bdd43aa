import EventLog
import EventLogTesting
import Foundation
import Migrations
import MusterWire
import Testing

@testable import Muster

/// Seed 004's areas: ids unique only within a kind, counts that restart when a rule's counts change, raw
/// iBeacon adverts, and the manager's "monitored" and "active" areas.
@Suite struct AreaKindTests {
    static let monday = RulesWorld.paris("2026-11-23T10:00:00")
    static let uuid = "F2A74FC4-7625-44DB-9B08-CB7E130B2029"
    /// The seed's advert (lines 749–762) with the flags many beacons send, 06.
    static let advert = "02 01 06 1A FF 4C 00 02 15 F2 A7 4F C4 76 25 44 DB 9B 08 CB 7E 13 0B 20 29 CC CC EE EE C5"

    static func rule(_ id: String = "r", maxEvents: Int? = nil) -> AreaRule {
        AreaRule(id: id, trigger: "on_entry", maxEvents: maxEvents, action: AreaRule.Action(notifyUser: "Hi"))
    }

    static func region(_ id: String, rules: [AreaRule]) -> Area {
        Area(id: id, region: .beacon(proximityUUID: uuid, major: nil, minor: nil), timeZone: "UTC", rules: rules)
    }

    @Test func aGeofenceAndABeaconRegionWithTheSameIdAreTwoAreasWithTheirOwnCounters() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let fence = RulesWorld.shop("1", rules: [Self.rule("fence-rule")])
        let areas = Areas(log: world.log)
        try await areas.define([fence, Self.region("1", rules: [Self.rule("beacon-rule")])])
        #expect(try areas.list().map(\.identity.description) == [#"beacon region "1""#, #"geofence "1""#])

        _ = try await world.enter(fence, at: Self.monday)
        let sighted = try await world.engine.report(
            try RuleEngine.BeaconReport(user: "ada", deviceId: "phone", advert: Self.advert, rssi: -60, at: Self.monday)
        )
        #expect(sighted.outcome("beacon-rule")?.fired == true)
        let counters = try RuleCounters(log: world.log).counters(area: "1")
        #expect(
            counters.map { "\($0.kind ?? "") \($0.rule ?? "") \($0.count)" } == [
                "beacon beacon-rule 1", "geofence fence-rule 1",
            ])
        #expect(try RuleCounters(log: world.log).counters(area: "1", kind: .beacon).count == 1)

        let ambiguous = await #expect(throws: MusterError.self) { try await areas.remove(id: "1") }
        #expect(ambiguous?.description.contains("names both a geofence and a beacon region") == true)
        let report = RuleEngine.TransitionReport(user: "ada", deviceId: "phone", area: "1", trigger: "on_exit")
        let unnamed = await #expect(throws: MusterError.self) { try await world.engine.report(report) }
        #expect(unnamed?.description.contains("give kind") == true)
        try await areas.remove(id: "1", kind: .beacon)
        #expect(try areas.list().map(\.kind) == [.geofence])
        #expect(try areas.resolve(id: "1").kind == .geofence, "one area left: the id alone names it")
    }

    @Test func oneImportMayHoldAGeofenceAndABeaconRegionWithTheSameIdButNotTwoOfAKind() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let both = #"""
            {"u_geofences":[{"id":"1","lat":48.87,"lng":2.33,"radius":0.05}],
             "u_beacons":[{"id":"1","proximity_uid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029"}]}
            """#
        #expect(try await Areas(log: world.log).importAreas(Data(both.utf8)).defined == ["1", "1"])
        let twice = #"{"u_geofences":[{"id":"1","lat":1,"lng":1,"radius":1},{"id":"1","lat":2,"lng":2,"radius":1}]}"#
        let error = await #expect(throws: MusterError.self) {
            try await Areas(log: world.log).importAreas(Data(twice.utf8))
        }
        #expect(error?.description.contains(#"u_geofences[1].id: geofence "1" appears twice"#) == true)
    }

    @Test func changingARulesCountsStartsItsCountersAgainAndAnUnchangedImportKeepsThem() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let areas = Areas(log: world.log)
        let once = RulesWorld.shop(rules: [Self.rule(maxEvents: 1)])
        try await areas.define([once])
        _ = try await world.enter(once, at: Self.monday)
        _ = try await world.leave(once, at: Self.monday + 60)
        #expect(try await world.enter(once, at: Self.monday + 120).outcome("r")?.fired == false, "max_events reached")

        let unchanged = try await areas.define([once])
        #expect(unchanged.countsChanged.isEmpty)
        #expect(try RuleCounters(log: world.log).counters(area: "shop").map(\.count) == [2])

        let twice = RulesWorld.shop(rules: [Self.rule(maxEvents: 2)])
        let changed = try await areas.define([twice])
        #expect(changed.countsChanged.map { "\($0.old.maxEvents ?? 0)→\($0.new.maxEvents ?? 0)" } == ["1→2"])
        #expect(try RuleCounters(log: world.log).counters(area: "shop").map(\.count) == [0])
        _ = try await world.leave(twice, at: Self.monday + 180)
        #expect(try await world.enter(twice, at: Self.monday + 240).outcome("r")?.fired == true)
        let audit = try Audit(log: world.log).entries(Audit.Filter())
        #expect(audit.contains { $0.what == .areaCountsChanged && $0.detail.contains("max_events 1") })
    }

    @Test func recordsOfEarlierReleasesNameTheAreaOfTheirId() async throws {
        let t = try TestLog("kinds")
        defer { t.directory.remove() }
        let log = try t.open {
            $0.projections += MusterDomain.projections
            $0.upcasters = Migrations.upcasters
        }
        defer { log.close() }
        try await Areas(log: log).define([Self.region("b1", rules: [Self.rule()])])
        // 0.1.0's RuleEvaluated body (schema 1): no kind; area b1 was then the beacon region.
        var old = ByteWriter()
        old.write("ada")
        old.write("phone")
        old.write("b1")
        old.write("r")
        old.write("on_entry")
        old.write(varint: 1)
        old.write(signed: 9)
        old.write(true)
        old.write("")
        old.write(signed: 3)  // areaCount
        // No group, group count, day, daily count, message, server URL or decision; not waiting.
        for byte: UInt8 in [0, 1, 0, 1, 0, 0, 0, 0] { old.write(byte) }
        let event = NewEvent(
            type: RuleEvaluated.type, schemaVersion: 1, body: .binary(old.bytes), actor: "rules", causationId: nil,
            correlationId: nil)
        _ = try await log.perform {
            try $0.append(AppendRequest(namespace: "default", stream: "device/phone", events: [event]))
        }
        let counters = try RuleCounters(log: log).counters(area: "b1")
        #expect(counters.map { "\($0.kind ?? "") \($0.count)" } == ["beacon 3"])
    }

    @Test func aBadAdvertIsRefusedNamingWhatWasWrongAndNothingIsStored() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let head = try world.log.read { $0.head }
        for (advert, expected) in [
            ("02 01 06 1A FF 59 00", "advert: offset 5: expected company id 4C 00 (Apple), found 59 00"),
            ("02 01 06 1A FF 4C 00 02 15 F2", "advert: offset 10: expected proximity UUID (16 bytes)"),
            ("zz", "advert: offset 0: expected a hex digit"),
        ] {
            let error = #expect(throws: MusterError.self) {
                try RuleEngine.BeaconReport(user: "ada", deviceId: "phone", advert: advert, rssi: -60)
            }
            #expect(error?.description.contains(expected) == true, "\(advert): \(error?.description ?? "")")
        }
        #expect(try world.log.read { $0.head } == head)
    }

    @Test func aDeviceMonitorsNearOpenAreasAndIsActiveInThoseItIsInside() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let here = RulesWorld.shop("here", rules: [])
        let near = RulesWorld.shop("near", latitude: 48.90, rules: [])  // about 3.3 km north
        let far = RulesWorld.shop("far", latitude: 49.10, rules: [])  // about 25 km north
        var closed = RulesWorld.shop("closed", rules: [])
        closed.end = Self.monday - 3600
        try await Areas(log: world.log).define([here, near, far, closed, Self.region("b1", rules: [])])
        _ = try await world.enter(here, at: Self.monday)

        let answer = try Areas(log: world.log).monitoring(user: "ada", deviceId: "phone", now: Self.monday)
        #expect(answer.position == DeviceAreas.Position(lat: 48.87, lng: 2.33))
        #expect(answer.monitored.map(\.id) == ["here", "near", "b1"])
        #expect(answer.monitored.first?.distance == 0)
        #expect(answer.active.map(\.id) == ["here"])
        let nobody = try Areas(log: world.log).monitoring(user: "ada", deviceId: "tablet", now: Self.monday)
        #expect(nobody.position == nil)
        #expect(nobody.monitored.map(\.id) == ["b1"], "a beacon region needs no position")
    }
}
