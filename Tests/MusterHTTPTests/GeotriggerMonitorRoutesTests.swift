import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// `POST /api/v1/geotriggers/{id}/start|stop`: administrators start and stop a geotrigger's monitor; the
/// geotriggers' JSON says whether it runs.
@Suite struct GeotriggerMonitorRoutesTests {
    static func lobby(expression: String = #"\"You have \" + $fencenotificationtype"#) -> String {
        #"""
        {"name":"Lobby","rule":"enter","messageExpression":"\#(expression)",
         "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"lobby",
           "geometry":{"type":"Point","coordinates":[2.33,48.87]},"properties":{"radius":20}}]}}
        """#
    }

    @Test func anAdministratorStopsAMonitorAndALocationNotifiesNoOne() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let put = try await client.send(.put, "/api/v1/geotriggers/lobby", token: ada, json: Self.lobby())
            #expect(put.object["monitor"] as? String == "running", "\(put.text)")

            #expect(try await client.send(.post, "/api/v1/geotriggers/lobby/stop", token: joe).status == .forbidden)
            let stopped = try await client.send(.post, "/api/v1/geotriggers/lobby/stop", token: ada)
            #expect(stopped.status == .ok)
            #expect(stopped.object as NSDictionary == ["id": "lobby", "monitor": "stopped"])
            let listed = try await client.send(.get, "/api/v1/geotriggers", token: joe)
            #expect(listed.array.map { $0["monitor"] as? String } == ["stopped"])
            let one = try await client.send(.get, "/api/v1/geotriggers/lobby", token: joe)
            #expect(one.object["monitor"] as? String == "stopped")

            let located = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"phone","lat":48.87,"lng":2.33}"#)
            let outcome = try #require((located.object["geotriggers"] as? [[String: Any]])?.first)
            #expect(outcome["fired"] as? Bool == false)
            #expect(outcome["reason"] as? String == "the monitor is stopped")
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.isEmpty)

            let started = try await client.send(.post, "/api/v1/geotriggers/lobby/start", token: ada)
            #expect(started.object as NSDictionary == ["id": "lobby", "monitor": "running"])
            _ = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"phone","lat":48.88,"lng":2.33}"#)
            let again = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"phone","lat":48.87,"lng":2.33}"#)
            #expect((again.object["geotriggers"] as? [[String: Any]])?.first?["fired"] as? Bool == true)
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.array.map { $0["body"] as? String } == ["You have entered"])
        }
    }

    @Test func theExpressionOfARunningMonitorIsRefusedAsAConflict() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            _ = try await client.send(.put, "/api/v1/geotriggers/lobby", token: ada, json: Self.lobby())
            let changed = try await client.send(
                .put, "/api/v1/geotriggers/lobby", token: ada, json: Self.lobby(expression: #"\"Hello\""#))
            #expect(changed.status == .conflict)
            #expect(changed.errorMessage.hasPrefix("messageExpression: cannot change while the monitor"))
            _ = try await client.send(.post, "/api/v1/geotriggers/lobby/stop", token: ada)
            let put = try await client.send(
                .put, "/api/v1/geotriggers/lobby", token: ada, json: Self.lobby(expression: #"\"Hello\""#))
            #expect(put.status == .created)
            #expect(put.object["monitor"] as? String == "stopped")
        }
    }

    @Test func anUnknownGeotriggersMonitorIsNotFound() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let answer = try await client.send(.post, "/api/v1/geotriggers/nowhere/start", token: ada)
            #expect(answer.status == .notFound)
            #expect(answer.errorMessage == #"no geotrigger "nowhere" in namespace default"#)
        }
    }
}
