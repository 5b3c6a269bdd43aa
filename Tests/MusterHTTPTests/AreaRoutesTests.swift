import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

@Suite struct AreaRoutesTests {
    static let shop = #"""
        {"name":"Shop","lat":48.87,"lng":2.33,"radius":0.05,"group_id":"","timezone":{"zone":"Europe/Paris"},
         "rules_actions":[{"id":"hello","rule":{"trigger":"on_entry","min_events":""},
           "action":{"notify_user":"Welcome to the shop","open_url":"https://shop.example/{id}?d={udid}"}}]}
        """#

    @Test func anAdministratorDefinesAGeofenceAndAUsersLocationFiresItsRule() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let put = try await client.send(.put, "/api/v1/geofences/shop", token: ada, json: Self.shop)
            #expect(put.status == .created, "\(put.text)")
            #expect(put.object["radius"] as? Double == 0.05)
            #expect(try await client.send(.put, "/api/v1/geofences/shop", token: ada, json: Self.shop).status == .ok)
            #expect(
                try await client.send(.put, "/api/v1/geofences/shop", token: joe, json: Self.shop).status == .forbidden)
            let listed = try await client.send(.get, "/api/v1/geofences", token: joe)
            #expect(listed.array.map { $0["id"] as? String } == ["shop"])

            let located = try await client.send(
                .post, "/api/v1/locations", token: joe,
                json: #"{"deviceId":"phone","lat":48.87,"lng":2.33,"accuracy":8,"at":"2026-11-23T10:00:00+01:00"}"#)
            #expect(located.status == .ok, "\(located.text)")
            #expect(located.object["transitions"] as? [[String: String]] == [["area": "shop", "trigger": "on_entry"]])
            let outcome = try #require((located.object["outcomes"] as? [[String: Any]])?.first)
            #expect(outcome["fired"] as? Bool == true)
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.array.map { $0["body"] as? String } == ["Welcome to the shop"])
            let messageId = try #require(inbox.array.first?["messageId"] as? String)
            let message = try await client.send(.get, "/api/v1/messages/\(messageId)", token: joe)
            #expect(message.text.contains("https://shop.example/shop?d=phone"))

            let counters = try await client.send(.get, "/api/v1/counters?area=shop", token: ada)
            #expect(counters.array.first?["count"] as? Int == 1)
            #expect(counters.array.first?["user"] as? String == "joe")
            let quota = try await client.send(.get, "/api/v1/quota/joe?date=2026-11-23", token: ada)
            #expect(quota.object["notifications"] as? Int == 1)
            #expect(try await client.send(.get, "/api/v1/quota/joe?date=soon", token: ada).status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/quota/nobody", token: ada).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/counters", token: joe).status == .forbidden)

            let audit = try await client.send(.get, "/api/v1/audit?area=shop&rule=hello", token: ada)
            #expect(audit.array.map { $0["what"] as? String } == ["ruleEvaluated"])
            #expect(audit.array.first?["fired"] as? Bool == true)

            #expect(try await client.send(.delete, "/api/v1/geofences/shop", token: ada).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/geofences/shop", token: joe).status == .notFound)
        }
    }

    @Test func anAdministratorDefinesAGeotriggerAndALocationGetsItsMessage() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let definition = #"""
                {"name":"Lobby","rule":"enter","bufferDistance":5,"messageExpression":"\"You have \" + $fencenotificationtype + \" \" + $fencefeature.area_name",
                 "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"lobby",
                   "geometry":{"type":"Point","coordinates":[2.33,48.87]},"properties":{"radius":20,"area_name":"the lobby"}}]}}
                """#
            let put = try await client.send(.put, "/api/v1/geotriggers/lobby", token: ada, json: definition)
            #expect(put.status == .created, "\(put.text)")
            #expect(try await client.send(.get, "/api/v1/geotriggers", token: joe).array.count == 1)
            let bad = try await client.send(
                .put, "/api/v1/geotriggers/bad", token: ada, json: #"{"messageExpression":"IIf("}"#)
            #expect(bad.status == .badRequest)
            #expect(bad.errorMessage.hasPrefix("messageExpression: line 1"))
            let located = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"phone","lat":48.87,"lng":2.33}"#)
            let notified = try #require((located.object["geotriggers"] as? [[String: Any]])?.first)
            #expect(notified["message"] as? String == "You have entered the lobby")
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.array.map { $0["body"] as? String } == ["You have entered the lobby"])
            #expect(try await client.send(.delete, "/api/v1/geotriggers/lobby", token: ada).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/geotriggers/lobby", token: joe).status == .notFound)
        }
    }

    @Test func badReportsAreRefusedNamingTheField() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let head = api.log.head
            for (body, field) in [
                (#"{"deviceId":"phone","lat":91,"lng":2.33}"#, "lat"),
                (#"{"deviceId":"phone","lat":48,"lng":2.33,"at":"soon"}"#, "at"),
                (#"{"deviceId":"phone","lat":48}"#, "lng"),
            ] {
                let answer = try await client.send(.post, "/api/v1/locations", token: joe, json: body)
                #expect(answer.status == .badRequest, "\(answer.text)")
                #expect(answer.errorMessage.contains(field) || answer.errorFields.contains(field), "\(answer.text)")
            }
            let sighting = try await client.send(
                .post, "/api/v1/beacons/sightings", token: joe,
                json: #"{"deviceId":"phone","uuid":"nope","major":1,"minor":1,"rssi":-60}"#)
            #expect(sighting.status == .badRequest)
            #expect(sighting.errorMessage.hasPrefix("uuid"))
            let area = try await client.send(
                .put, "/api/v1/geofences/x", token: try await client.login("ada"),
                json: #"{"lat":48,"lng":2,"radius":"far"}"#)
            #expect(area.status == .badRequest)
            #expect(area.errorMessage.hasPrefix("geofence.radius: expected a radius in kilometres"), "\(area.text)")
            #expect(api.log.head == head + 1)  // ada's login
            #expect(
                try await client.send(.post, "/api/v1/locations", json: #"{"deviceId":"p","lat":1,"lng":1}"#).status
                    == .unauthorized)
        }
    }

    /// A sighting may carry how close the device itself judged the beacon (CLProximity by name): a rule's
    /// `maximum_proximity` takes it over the estimate from a faint -90 dBm, which alone reads as far.
    @Test func aSightingCarriesTheDevicesOwnProximity() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let region =
                #"{"proximity_uid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","major":1,"rules_actions":[{"id":"close","rule":{"trigger":"on_entry","maximum_proximity":"near"},"action":{"notify_user":"At the counter"}}]}"#
            #expect(try await client.send(.put, "/api/v1/beacons/counter", token: ada, json: region).status == .created)
            func sighting(_ device: String, _ proximity: String) -> String {
                #"{"deviceId":"\#(device)","uuid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","major":1,"minor":9,"rssi":-90\#(proximity)}"#
            }
            let head = api.log.head
            let refused = try await client.send(
                .post, "/api/v1/beacons/sightings", token: joe, json: sighting("phone", #","proximity":"close""#))
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorFields == ["proximity"], "\(refused.text)")
            #expect(refused.errorMessage.contains("immediate, near, far or unknown"), "\(refused.text)")
            #expect(api.log.head == head)

            let estimated = try await client.send(
                .post, "/api/v1/beacons/sightings", token: joe, json: sighting("phone", ""))
            let outcome = (estimated.object["outcomes"] as? [[String: Any]])?.first
            #expect(outcome?["fired"] as? Bool == false, "\(estimated.text)")
            #expect(outcome?["reason"] as? String == "beacon proximity far is beyond maximum_proximity near")
            let judged = try await client.send(
                .post, "/api/v1/beacons/sightings", token: joe, json: sighting("tablet", #","proximity":"near""#))
            #expect((judged.object["outcomes"] as? [[String: Any]])?.first?["fired"] as? Bool == true, "\(judged.text)")
        }
    }

    @Test func theUbuduWebAPIServesAreasByNamespaceAndPlaceWithoutALogin() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        _ = try await Areas(log: api.log).importAreas(Data(seedBeaconsForHTTP.utf8))
        _ = try await Areas(log: api.log).define([
            Area(id: "paris", region: .geofence(latitude: 48.8682, longitude: 2.3232, radius: 100)),
            Area(id: "warsaw", region: .geofence(latitude: 52.2319565, longitude: 21.0208855, radius: 100)),
        ])
        try await api.run { client in
            let near = try await client.send(
                .get, "/u_geofences.json?api_version=2&namespace=default&lat=52.2319565&lgn=21.0208855&radius=10.0")
            #expect(near.status == .ok, "\(near.text)")
            #expect((near.object["u_geofences"] as? [[String: Any]])?.map { $0["id"] as? String } == ["warsaw"])
            #expect((near.object["query_params"] as? [String: String])?["lgn"] == "21.0208855")
            #expect(near.object["api_version"] as? String == "2")
            let all = try await client.send(.get, "/u_geofences.json?namespace=default")
            #expect((all.object["u_geofences"] as? [[String: Any]])?.count == 2)
            let beacons = try await client.send(.get, "/u_beacons.json?api_version=2")
            let region = try #require((beacons.object["u_beacons"] as? [[String: Any]])?.first)
            #expect(region["proximity_uid"] as? String == "566C5595-6EC7-4F08-909F-C954BDCA6CD3")
            #expect(region["major"] as? Int == 42)
            let partial = try await client.send(.get, "/u_geofences.json?lat=52.2&lgn=21.0")
            #expect(partial.status == .badRequest)
            #expect(partial.errorFields == ["radius"])
            let old = try await client.send(.get, "/u_beacons.json?api_version=1")
            #expect(old.status == .badRequest)
            #expect(old.errorFields == ["api_version"])
        }
    }
}

let seedBeaconsForHTTP = #"""
    {"u_beacons":[{"id":"1","group_id":"1000","name":"Full Beacon Example","timezone":{"zone":"Europe/Paris"},
     "rules_actions":[{"id":"11","rule":{"trigger":"on_entry","min_events":2,"max_events":4,"latch_time":2,
     "maximum_proximity":null},"action":{"notify_user":"Come buy at example fence"}}],
     "proximity_uid":"566C5595-6EC7-4F08-909F-C954BDCA6CD3","major":42,"minor":""}]}
    """#
