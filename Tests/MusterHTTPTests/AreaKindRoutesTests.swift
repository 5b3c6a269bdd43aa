import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// Raw adverts, a device's monitored areas, and ids shared by a geofence and a beacon region, through the router.
@Suite struct AreaKindRoutesTests {
    static let door = #"""
        {"lat":48.87,"lng":2.33,"radius":0.05,"rules_actions":[{"id":"hi","rule":{"trigger":"on_entry"},
         "action":{"notify_user":"Hello"}}]}
        """#
    static let counter = #"""
        {"proximity_uid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","rules_actions":[{"id":"b","rule":{"trigger":"on_entry"},
         "action":{"notify_user":"Beacon"}}]}
        """#
    static let advert = "02 01 06 1A FF 4C 00 02 15 F2 A7 4F C4 76 25 44 DB 9B 08 CB 7E 13 0B 20 29 CC CC EE EE C5"

    @Test func anAdvertEntersTheBeaconRegionAndABadOneIsRefusedNamingTheOffset() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            #expect(
                try await client.send(.put, "/api/v1/beacons/door", token: ada, json: Self.counter).status == .created)
            let head = api.log.head
            let bad = try await client.send(
                .post, "/api/v1/beacons/adverts", token: ada,
                json: #"{"deviceId":"phone","advert":"02 01 06 1A FF 59 00","rssi":-60}"#)
            #expect(bad.status == .badRequest)
            #expect(bad.errorMessage.contains("advert: offset 5: expected company id 4C 00 (Apple), found 59 00"))
            #expect(api.log.head == head, "nothing is stored")
            let good = try await client.send(
                .post, "/api/v1/beacons/adverts", token: ada,
                json: #"{"deviceId":"phone","advert":"\#(Self.advert)","rssi":-60}"#)
            #expect(good.status == .ok, "\(good.text)")
            #expect(good.object["transitions"] as? [[String: String]] == [["area": "door", "trigger": "on_entry"]])
        }
    }

    @Test func anIdSharedByTwoKindsNeedsTheKindAndTheDeviceListsWhatItMonitors() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            #expect(
                try await client.send(.put, "/api/v1/geofences/door", token: ada, json: Self.door).status == .created)
            #expect(
                try await client.send(.put, "/api/v1/beacons/door", token: ada, json: Self.counter).status == .created)
            #expect(try await client.send(.get, "/api/v1/geofences/door", token: ada).status == .ok)
            #expect(try await client.send(.get, "/api/v1/beacons/door", token: ada).status == .ok)

            let ambiguous = try await client.send(
                .post, "/api/v1/transitions", token: ada,
                json: #"{"deviceId":"phone","area":"door","trigger":"on_entry"}"#)
            #expect(ambiguous.status == .badRequest)
            #expect(ambiguous.errorMessage.contains("names both a geofence and a beacon region"), "\(ambiguous.text)")
            let named = try await client.send(
                .post, "/api/v1/transitions", token: ada,
                json: #"{"deviceId":"phone","area":"door","kind":"geofence","trigger":"on_entry"}"#)
            #expect(named.status == .ok, "\(named.text)")

            let areas = try await client.send(.get, "/api/v1/devices/phone/areas", token: ada)
            #expect(areas.status == .ok, "\(areas.text)")
            let monitored = areas.object["monitored"] as? [[String: Any]] ?? []
            #expect(
                monitored.map { "\($0["kind"] ?? "") \($0["id"] ?? "")" } == ["beacon door"], "no fix: beacons only")
            let active = areas.object["active"] as? [[String: Any]] ?? []
            #expect(active.isEmpty, "a geofence without a fix is not monitored, so not active")

            _ = try await client.send(
                .post, "/api/v1/locations", token: ada, json: #"{"deviceId":"phone","lat":48.87,"lng":2.33}"#)
            let located = try await client.send(.get, "/api/v1/devices/phone/areas", token: ada)
            let activeNow = located.object["active"] as? [[String: Any]] ?? []
            #expect(activeNow.map { "\($0["kind"] ?? "") \($0["id"] ?? "")" } == ["geofence door"], "\(located.text)")
            let counters = try await client.send(.get, "/api/v1/counters?area=door&kind=geofence", token: ada)
            #expect(counters.array.map { $0["kind"] as? String } == ["geofence"], "\(counters.text)")
        }
    }
}
