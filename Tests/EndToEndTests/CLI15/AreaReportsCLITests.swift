import EventLogTesting
import Foundation
import Testing

/// `muster beacon --advert`, `muster areas monitored`, and `--kind` on `muster counters` and `muster transition`,
/// through the binary on a data directory holding a geofence and a beacon region that share the id "door".
@Suite struct AreaReportsCLITests {
    /// Geofence "door" (50 m around 48.87, 2.33) and beacon region "door", each with an entry rule.
    static let doors = #"""
        {"u_geofences":[{"id":"door","lat":48.87,"lng":2.33,"radius":0.05,"name":"Front door","rules_actions":[
          {"id":"hi","rule":{"trigger":"on_entry"},"action":{"notify_user":"Hello"}}]}],
         "u_beacons":[{"id":"door","proximity_uid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","name":"Door beacon",
          "rules_actions":[{"id":"b","rule":{"trigger":"on_entry"},"action":{"notify_user":"Beacon"}}]}]}
        """#
    /// Seed 004's advertising packet (UUID F2A74FC4-…, major CCCC, minor EEEE, power C5) with the flags 06.
    static let advert = "02 01 06 1A FF 4C 00 02 15 F2 A7 4F C4 76 25 44 DB 9B 08 CB 7E 13 0B 20 29 CC CC EE EE C5"

    /// A data directory with user ada and the two doors.
    static func world(_ work: TemporaryDirectory) async throws -> [String] {
        let data = ["--data", work.url.appendingPathComponent("data").path]
        try #require(try await MusterProcess.run(["users", "add", "ada"] + data).status == 0)
        let imported = try await MusterProcess.run(["areas", "import", "-"] + data, stdin: Self.doors)
        try #require(imported.status == 0, "\(imported)")
        return data
    }

    /// How many events the data directory holds.
    static func eventCount(_ data: [String]) async throws -> Int {
        let events = try await MusterProcess.run(["events", "--json"] + data)
        try #require(events.status == 0, "\(events)")
        return events.lines.count
    }

    /// `kind id` of each area in a list of `areas monitored --json`.
    static func names(_ areas: Any?) -> [String] {
        (areas as? [[String: Any]] ?? []).map { "\($0["kind"] as? String ?? "?") \($0["id"] as? String ?? "?")" }
    }

    @Test func anAdvertEntersTheBeaconRegionAndABadOneIsRefusedNamingTheOffset() async throws {
        let work = try TemporaryDirectory("advert-cli")
        defer { work.remove() }
        let data = try await Self.world(work)
        let device = ["--user", "ada", "--device-id", "phone", "--rssi", "-60"]
        let before = try await Self.eventCount(data)
        let bad = try await MusterProcess.run(["beacon", "--advert", "02 01 06 1A FF 59 00", "--json"] + device + data)
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("advert: offset 5: expected company id 4C 00 (Apple), found 59 00"), "\(bad)")
        let short = try await MusterProcess.run(["beacon", "--advert", String(Self.advert.prefix(29))] + device + data)
        #expect(short.status == 2, "\(short)")
        #expect(short.stderr.contains("advert: offset 10: expected proximity UUID"), "\(short)")
        #expect(try await Self.eventCount(data) == before, "a refused advert stores nothing")

        let sighted = try await MusterProcess.run(["beacon", "--advert", Self.advert, "--json"] + device + data)
        #expect(sighted.status == 0, "\(sighted)")
        #expect(try sighted.json()["transitions"] as? [[String: String]] == [["area": "door", "trigger": "on_entry"]])
        let outcomes = try sighted.json()["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["rule"] as? String } == ["b"], "\(sighted)")
        #expect(outcomes.first?["fired"] as? Bool == true)
        #expect(try await Self.eventCount(data) > before)
        let both = try await MusterProcess.run(["beacon", "--advert", Self.advert, "--uuid", "x"] + device + data)
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("--advert carries the UUID"), "\(both)")
    }

    /// `--proximity` is how close the device judged the beacon: recorded with the sighting, and checked by name.
    @Test func aSightingTakesTheDevicesOwnProximityByName() async throws {
        let work = try TemporaryDirectory("proximity-cli")
        defer { work.remove() }
        let data = try await Self.world(work)
        let sighting = [
            "beacon", "--uuid", "F2A74FC4-7625-44DB-9B08-CB7E130B2029", "--major", "1", "--minor", "9", "--rssi", "-90",
            "--user", "ada", "--device-id", "phone",
        ]
        let before = try await Self.eventCount(data)
        let bad = try await MusterProcess.run(sighting + ["--proximity", "close"] + data)
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains(#"proximity: expected immediate, near, far or unknown"#), "\(bad)")
        #expect(try await Self.eventCount(data) == before, "a refused sighting stores nothing")
        let judged = try await MusterProcess.run(sighting + ["--proximity", "near"] + data)
        #expect(judged.status == 0, "\(judged)")
        let events = try await MusterProcess.run(["events", "--type", "BeaconSighted", "--json"] + data)
        let body = try events.jsonLines().first?["body"] as? [String: Any]
        #expect(body?["proximity"] as? String == "near", "-90 dBm alone reads as far: \(events)")
        let withAdvert = try await MusterProcess.run(
            [
                "beacon", "--advert", Self.advert, "--proximity", "near", "--rssi", "-60", "--user", "ada",
                "--device-id", "phone",
            ]
                + data)
        #expect(withAdvert.status == 2, "\(withAdvert)")
        #expect(withAdvert.stderr.contains("--proximity goes with --uuid"), "\(withAdvert)")
    }

    @Test func countersAndTransitionsTakeTheKindAndMonitoredListsTheDevicesAreas() async throws {
        let work = try TemporaryDirectory("kind-cli")
        defer { work.remove() }
        let data = try await Self.world(work)
        let device = ["--user", "ada", "--device-id", "phone"]
        let unknown = try await MusterProcess.run(["areas", "monitored", "--json"] + device + data)
        #expect(unknown.status == 0, "\(unknown)")
        let noFix = try unknown.json()
        #expect(noFix["position"] == nil || noFix["position"] is NSNull, "\(unknown)")
        #expect(Self.names(noFix["monitored"]) == ["beacon door"], "no fix yet: beacon regions only")

        let located = try await MusterProcess.run(["location", "--lat", "48.87", "--lng", "2.33"] + device + data)
        #expect(located.status == 0, "\(located)")
        let sighted = try await MusterProcess.run(
            ["beacon", "--advert", AreaReportsCLITests.advert, "--rssi", "-60"] + device + data)
        #expect(sighted.status == 0, "\(sighted)")

        let all = try await MusterProcess.run(["counters", "--json"] + data)
        let counters = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(Set(counters.compactMap { $0["kind"] as? String }) == ["beacon", "geofence"], "\(all)")
        for (kind, rule) in [("beacon", "b"), ("geofence", "hi")] {
            let only = try await MusterProcess.run(["counters", "--area", "door", "--kind", kind, "--json"] + data)
            #expect(only.status == 0, "\(only)")
            let rows = try JSONSerialization.jsonObject(with: Data(only.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(!rows.isEmpty, "\(kind): \(only)")
            #expect(rows.allSatisfy { $0["kind"] as? String == kind }, "\(only)")
            #expect(rows.contains { $0["rule"] as? String == rule && $0["count"] as? Int == 1 }, "\(only)")
        }
        let badKind = try await MusterProcess.run(["counters", "--kind", "shop"] + data)
        #expect(badKind.status == 2, "\(badKind)")
        #expect(badKind.stderr.contains("--kind"), "\(badKind)")

        let ambiguous = try await MusterProcess.run(
            ["transition", "--area", "door", "--trigger", "on_exit"] + device + data)
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("names both a geofence and a beacon region"), "\(ambiguous)")
        let left = try await MusterProcess.run(
            ["transition", "--area", "door", "--kind", "beacon", "--trigger", "on_exit", "--json"] + device + data)
        #expect(left.status == 0, "\(left)")
        #expect(try left.json()["transitions"] as? [[String: String]] == [["area": "door", "trigger": "on_exit"]])

        let monitored = try await MusterProcess.run(["areas", "monitored", "--json"] + device + data)
        #expect(monitored.status == 0, "\(monitored)")
        let answer = try monitored.json()
        let position = answer["position"] as? [String: Any]
        #expect(position?["lat"] as? Double == 48.87 && position?["lng"] as? Double == 2.33, "\(monitored)")
        #expect(Set(Self.names(answer["monitored"])) == ["geofence door", "beacon door"], "\(monitored)")
        #expect(Self.names(answer["active"]) == ["geofence door"], "the beacon region was left: \(monitored)")
        let table = try await MusterProcess.run(["areas", "monitored"] + device + data)
        #expect(table.lines.first == "position: 48.87,2.33", "\(table)")
        let stranger = try await MusterProcess.run(["areas", "monitored", "--user", "kim", "--device-id", "x"] + data)
        #expect(stranger.status == 2, "\(stranger)")
        #expect(stranger.stderr.contains("no user named kim"), "\(stranger)")
    }
}
