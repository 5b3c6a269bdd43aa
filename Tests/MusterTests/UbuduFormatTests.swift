import EventLog
import Foundation
import Geo
import Testing

@testable import Muster

@Suite struct UbuduFormatTests {
    @Test func theSeedsGeofenceExampleReadsWithRadiiInMetres() throws {
        let document = try UbuduFormat.read(Data(seedGeofences.utf8))
        #expect(document.areas.map(\.id) == ["52", "35"])
        let shop = document.areas[1]
        #expect(shop.region == .geofence(latitude: 48.87621805, longitude: 2.32686415, radius: 20))
        #expect(shop.timeZone == "Europe/Paris")
        #expect(shop.start == UbuduFormat.parseDate("2013-07-10T00:00:00Z"))
        #expect(shop.rules.map(\.id) == ["33", "32"])
        #expect(shop.rules[1].minEvents == 1)
        #expect(shop.rules[1].action.notification?.alertBody == "Venez découvrir nos offres !")
        // "-1" means no minimum.
        #expect(document.areas[0].rules[0].minEvents == nil)
        #expect(shop.schedule.week?[.sun] == DailyHours(open: 0, close: 0))
    }

    @Test func theSeedsBeaconExampleReadsWithItsSlipsReported() throws {
        let document = try UbuduFormat.read(Data(seedBeacons.utf8))
        let region = try #require(document.areas.first)
        #expect(region.region == .beacon(proximityUUID: "566C5595-6EC7-4F08-909F-C954BDCA6CD3", major: 42, minor: nil))
        #expect(region.groupId == "1000")
        #expect(region.schedule.week?[.thu] == DailyHours(open: 32400, close: 68400))
        #expect(document.warnings.contains { $0.contains("thi") })
        let rule = try #require(region.rules.first)
        #expect(rule.minEvents == 2 && rule.maxEvents == 4 && rule.minGroupEvents == 0 && rule.maxGroupEvents == 4)
        #expect(rule.latchTime == 2)
        #expect(rule.maximumProximity == nil)
        #expect(region.matches(proximityUUID: "566c5595-6ec7-4f08-909f-c954bdca6cd3", major: 42, minor: 7))
        #expect(!region.matches(proximityUUID: "566C5595-6EC7-4F08-909F-C954BDCA6CD3", major: 43, minor: 7))
    }

    /// Found by the `ubudu` fuzzer: a start with a fraction of a second was written back without it, so the area
    /// read again opened a moment earlier than the one imported. Dates are read to the whole second.
    /// Coordinates are read to the last bit, and read back the same from the areas' own JSON (Foundation's
    /// JSONSerialization reads 2.3268640000000001 as 2.3268639999999996 on Linux; a fuzz run found it).
    @Test func longDecimalCoordinatesAreReadExactlyAndReadBackTheSame() throws {
        let text = #"{"id":"35","lat":48.87621805,"lng":2.3268640000000001,"radius":0.02,"timezone":{"zone":"UTC"}}"#
        let area = try #require(try UbuduFormat.read(Data(text.utf8)).areas.first)
        guard case .geofence(let latitude, let longitude, _) = area.region else {
            Issue.record("not a geofence: \(area.region)")
            return
        }
        #expect(longitude == Double("2.3268640000000001"))
        #expect(latitude == 48.87621805)
        #expect(try UbuduFormat.read(UbuduFormat.json([area])).areas == [area])
    }

    @Test func aFractionOfASecondIsDroppedSoTheWrittenAreaReadsBackTheSame() throws {
        let text = seedGeofences.replacingOccurrences(of: "2013-07-10T00:00:00Z", with: "2013-07-10T00:00:00.75Z")
        try #require(text != seedGeofences)
        let areas = try UbuduFormat.read(Data(text.utf8)).areas
        #expect(areas[1].start == UbuduFormat.parseDate("2013-07-10T00:00:00Z"))
        #expect(try UbuduFormat.read(UbuduFormat.json(areas)).areas == areas)
    }

    @Test func writingThenReadingGivesTheSameAreas() throws {
        let areas = try UbuduFormat.read(Data(seedGeofences.utf8)).areas
        let served = UbuduFormat.response(
            beacons: false, areas: areas, validUntil: Date(timeIntervalSince1970: 0),
            queryParameters: ["api_version": "2"])
        let object = try #require(try JSONSerialization.jsonObject(with: served) as? [String: Any])
        #expect(object["api_version"] as? String == "2")
        let first = try #require((object["u_geofences"] as? [[String: Any]])?.first)
        #expect(first["radius"] as? Double == 0.1)
        #expect(try UbuduFormat.read(served).areas == areas)
        let beacons = try UbuduFormat.read(Data(seedBeacons.utf8)).areas
        let servedBeacons = UbuduFormat.response(
            beacons: true, areas: beacons, validUntil: Date(), queryParameters: [:])
        #expect(try UbuduFormat.read(servedBeacons).areas == beacons)
    }

    /// The seed's beacon example names its zone "Paris, France": the title is kept and written back as given; an area
    /// whose title is its zone (the geofence example) keeps none of its own.
    @Test func aTimezonesTitleIsWrittenBackAsItWasGiven() throws {
        let beacon = try #require(try UbuduFormat.read(Data(seedBeacons.utf8)).areas.first)
        #expect(beacon.timeZoneTitle == "Paris, France")
        #expect((UbuduFormat.object(beacon)["timezone"] as? [String: Any])?["title"] as? String == "Paris, France")
        let shop = try UbuduFormat.read(Data(seedGeofences.utf8)).areas[1]
        #expect(shop.timeZoneTitle == nil)
        #expect((UbuduFormat.object(shop)["timezone"] as? [String: Any])?["title"] as? String == "Europe/Paris")
    }

    /// Seed 004: `offset` is the zone's offset from UTC in seconds ("Europe/Paris has an offset of 3600 outside of
    /// DST"), `utc_offset` in hours, and `dst` whether they take summer time into account — at the time of the answer.
    @Test(arguments: [
        ("Europe/Paris", "2026-01-15T12:00:00Z", 3600, false),
        ("Europe/Paris", "2026-07-15T12:00:00Z", 7200, true),
        ("America/New_York", "2026-07-15T12:00:00Z", -14400, true),
        ("+02:00", "2026-07-15T12:00:00Z", 7200, false),
    ])
    func aTimezonesOffsetIsTheZonesAtTheTimeAndDstSaysWhetherItIsSummerTime(
        zone: String, at: String, offset: Int, dst: Bool
    ) throws {
        let now = try #require(UbuduFormat.parseDate(at))
        let timezone = UbuduFormat.timezone(zone, title: nil, now: now)
        #expect(timezone["zone"] as? String == zone)
        #expect(timezone["offset"] as? Int == offset)
        #expect(timezone["utc_offset"] as? Double == Double(offset) / 3600)
        #expect(timezone["dst"] as? Bool == dst)
    }

    @Test(arguments: [
        (#"{"u_geofences":[{"id":1,"lat":91,"lng":2,"radius":0.1}]}"#, "u_geofences[0].lat"),
        (#"{"u_geofences":[{"id":1,"lat":48,"lng":2,"radius":"wide"}]}"#, "u_geofences[0].radius"),
        (#"{"u_geofences":[{"lat":48,"lng":2,"radius":0.1}]}"#, "u_geofences[0].id"),
        (#"{"u_beacons":[{"id":1,"proximity_uid":"nope"}]}"#, "u_beacons[0].proximity_uid"),
        (
            #"{"u_beacons":[{"id":1,"proximity_uid":"566C5595-6EC7-4F08-909F-C954BDCA6CD3","major":70000}]}"#,
            "u_beacons[0].major"
        ),
        (
            #"{"u_geofences":[{"id":1,"lat":48,"lng":2,"radius":0.1,"timezone":{"zone":"Mars/Olympus"}}]}"#,
            "u_geofences[0].timezone.zone"
        ),
        (#"{"u_geofences":[{"id":1,"lat":48,"lng":2,"radius":0.1,"start":"yesterday"}]}"#, "u_geofences[0].start"),
        (
            #"{"u_geofences":[{"id":1,"lat":48,"lng":2,"radius":0.1,"rules_actions":[{"id":1,"rule":{"trigger":"on_entry","max_events":"many"}}]}]}"#,
            "u_geofences[0].rules_actions[0].rule.max_events"
        ),
        (
            #"{"u_geofences":[{"id":1,"lat":48,"lng":2,"radius":0.1},{"id":"1","lat":48,"lng":2,"radius":0.1}]}"#,
            "u_geofences[1].id"
        ),
        ("not json", "not valid JSON"),
    ])
    func aBadFieldIsNamed(document: String, field: String) {
        let error = #expect(throws: MusterError.self) { try UbuduFormat.read(Data(document.utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(field) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        (#"{"title":"UTC+2","offset":7200,"utc_offset":2,"dst":false}"#, "+02:00"),
        (#"{"zone":"","utc_offset":-3.5}"#, "-03:30"),
        (#"{"offset":"-36000"}"#, "-10:00"),
    ])
    func aTimezoneWithOnlyAnOffsetKeepsThatOffsetAndSaysSo(timezone: String, zone: String) throws {
        let document = try UbuduFormat.read(
            Data(#"{"u_geofences":[{"id":1,"lat":48,"lng":2,"radius":0.1,"timezone":\#(timezone)}]}"#.utf8))
        #expect(document.areas.first?.timeZone == zone)
        #expect(document.warnings.contains { $0.contains("timezone: no zone; its offset \(zone) is used all year") })
        // Opening hours are then read at that offset: 07:30 UTC is 09:30 at +02:00.
        let offset = try TimeZone(areaZone: zone)
        #expect(offset.secondsFromGMT() == ["+02:00": 7200, "-03:30": -12600, "-10:00": -36000][zone])
    }

    @Test func notifyUserTakesTextOrTheJSONForm() {
        #expect(UserNotice("Hello")?.alertBody == "Hello")
        #expect(UserNotice("") == nil)
        let json = UserNotice(#"{"alertBody":"Hi","payload":{"coupon":7}}"#)
        #expect(json?.alertBody == "Hi")
        #expect(json?.payload.map { String(decoding: $0, as: UTF8.self) } == #"{"coupon":7}"#)
        #expect(UserNotice(#"{"alertBody":"","payload":{}}"#) == nil)
    }

    @Test func urlTemplatesSubstituteEncodedValues() {
        let url = URLTemplate.expand(
            "http://x/space/{namespace}/fence/{id}/device/{udid}?at={lat},{lng}",
            URLTemplate.Values(
                area: "shop 1", latitude: 48.5, longitude: -2.25, deviceId: "phone/1", namespace: "default"))
        #expect(url == "http://x/space/default/fence/shop%201/device/phone%2F1?at=48.5,-2.25")
    }

    @Test func aLiteralBraceInATemplateLeavesTheSubstitutedValuesEncodedOnce() throws {
        let url = URLTemplate.expand(
            "http://127.0.0.1/brace/{udid}/{campaign}",
            URLTemplate.Values(area: "a", latitude: nil, longitude: nil, deviceId: "a b", namespace: "default"))
        let target = try #require(URL(string: ServerHook.escapingStrayCharacters(url)))
        #expect(target.absoluteString == "http://127.0.0.1/brace/a%20b/%7Bcampaign%7D")
    }
}
