import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// A rule's server hook (`notify_server`, whose URL may carry an API key) is shown to administrators only.
@Suite struct ServerHookVisibilityTests {
    static let hook = "https://hooks.example/fire?key=SECRET-KEY-123&area={id}"

    /// One geofence and one beacon region, each with a rule that calls the hook.
    static func defineAreas(_ api: APITester) async throws {
        let rule = AreaRule(id: "r1", trigger: "on_entry", action: .init(notifyServer: hook, notifyUser: "Hello"))
        _ = try await Areas(log: api.log).define([
            Area(id: "shop", region: .geofence(latitude: 48.87, longitude: 2.33, radius: 50), rules: [rule]),
            Area(
                id: "door", region: .beacon(proximityUUID: "566C5595-6EC7-4F08-909F-C954BDCA6CD3", major: 1, minor: 2),
                rules: [rule]),
        ])
    }

    /// Every `notify_server` of every rule of the areas in a JSON answer.
    static func hooks(_ areas: [[String: Any]]) -> [String?] {
        areas.flatMap { area in
            (area["rules_actions"] as? [[String: Any]] ?? []).map {
                ($0["action"] as? [String: Any])?["notify_server"] as? String
            }
        }
    }

    @Test func aUserSeesRulesWithoutTheirServerHookAndAnAdministratorSeesIt() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await Self.defineAreas(api)
        try await api.run { client in
            let joe = try await client.login("joe")
            let ada = try await client.login("ada")
            for path in ["/api/v1/geofences", "/api/v1/beacons"] {
                let listed = try await client.send(.get, path, token: joe)
                #expect(listed.status == .ok)
                #expect(Self.hooks(listed.array) == [""], "\(listed.text)")
                #expect(!listed.text.contains("SECRET-KEY"))
                #expect(
                    (listed.array.first?["rules_actions"] as? [[String: Any]])?.first.map {
                        ($0["action"] as? [String: Any])?["notify_user"] as? String
                    } == "Hello")
                let all = try await client.send(.get, path, token: ada)
                #expect(Self.hooks(all.array) == [Self.hook])
            }
            for path in ["/api/v1/geofences/shop", "/api/v1/beacons/door"] {
                let one = try await client.send(.get, path, token: joe)
                #expect(one.status == .ok)
                #expect(Self.hooks([one.object]) == [""], "\(one.text)")
                #expect(!one.text.contains("SECRET-KEY"))
                #expect(Self.hooks([try await client.send(.get, path, token: ada).object]) == [Self.hook])
            }
        }
    }

    @Test func theOpenUbuduWebAPINeverShowsAServerHook() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await Self.defineAreas(api)
        try await api.run { client in
            for (path, key) in [("/u_geofences.json", "u_geofences"), ("/u_beacons.json", "u_beacons")] {
                let answer = try await client.send(.get, path)
                #expect(answer.status == .ok)
                let areas = try #require(answer.object[key] as? [[String: Any]])
                #expect(areas.count == 1)
                // Still the Ubudu shape: the member is there, empty meaning "no hook".
                #expect(Self.hooks(areas) == [""], "\(answer.text)")
                #expect(!answer.text.contains("SECRET-KEY"))
            }
        }
    }
}
