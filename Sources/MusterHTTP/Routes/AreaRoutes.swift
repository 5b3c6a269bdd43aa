import EventLog
import Foundation
import Geo
import Hummingbird
import Muster

extension API {
    /// Areas (`geofences`, `beacons`), location and beacon reports, and the Ubudu web API.
    func addAreaRoutes(to group: RouterGroup<Context>) {
        for kind in [AreaKind.geofences, .beacons] {
            group.put("\(kind.rawValue)/:id") { request, context in
                let caller = try context.administrator()
                let area = try kind.read(try await request.jsonBody(), id: try context.parameter("id"))
                let result = try await areas.define([area], namespace: caller.namespace, actor: caller.username)
                return JSONCoding.response(UbuduFormat.json(area), status: result.defined.isEmpty ? .ok : .created)
            }
            group.get("\(kind.rawValue)/:id") { _, context in
                let caller = try context.caller()
                let found = try area(kind, try context.parameter("id"), namespace: caller.namespace)
                return JSONCoding.response(UbuduFormat.json(caller.isAdmin ? found : found.withoutServerHooks))
            }
            group.get(RouterPath(kind.rawValue)) { _, context in
                let caller = try context.caller()
                let listed = try areas.list(namespace: caller.namespace).filter(kind.holds)
                return JSONCoding.response(UbuduFormat.json(caller.isAdmin ? listed : listed.map(\.withoutServerHooks)))
            }
            group.delete("\(kind.rawValue)/:id") { _, context in
                let caller = try context.administrator()
                let found = try area(kind, try context.parameter("id"), namespace: caller.namespace)
                try await areas.remove(id: found.id, namespace: caller.namespace, actor: caller.username)
                return emptyResponse(.noContent)
            }
        }

        group.post("locations") { request, context in
            let caller = try context.caller()
            struct Body: Decodable {
                var deviceId: String
                var lat: Double
                var lng: Double
                var accuracy: Double?
                var at: String?
            }
            let body = try await request.decode(Body.self)
            let evaluation = try await rules.report(
                RuleEngine.LocationReport(
                    user: caller.username, deviceId: body.deviceId, latitude: body.lat, longitude: body.lng,
                    accuracy: body.accuracy, at: try Self.time(body.at), namespace: caller.namespace))
            return try JSONCoding.response(evaluation)
        }

        group.post("transitions") { request, context in
            let caller = try context.caller()
            struct Body: Decodable {
                var deviceId: String
                var area: String
                var trigger: String
                var lat: Double?
                var lng: Double?
                var at: String?
            }
            let body = try await request.decode(Body.self)
            let evaluation = try await rules.report(
                RuleEngine.TransitionReport(
                    user: caller.username, deviceId: body.deviceId, area: body.area, trigger: body.trigger,
                    at: try Self.time(body.at), latitude: body.lat, longitude: body.lng, namespace: caller.namespace))
            return try JSONCoding.response(evaluation)
        }

        group.post("beacons/sightings") { request, context in
            let caller = try context.caller()
            struct Body: Decodable {
                var deviceId: String
                var uuid: String
                var major: Int
                var minor: Int
                var rssi: Int
                var txPower: Int?
                var at: String?
            }
            let body = try await request.decode(Body.self)
            let evaluation = try await rules.report(
                RuleEngine.BeaconReport(
                    user: caller.username, deviceId: body.deviceId, proximityUUID: body.uuid, major: body.major,
                    minor: body.minor, rssi: body.rssi, measuredPower: body.txPower ?? -59, at: try Self.time(body.at),
                    namespace: caller.namespace))
            return try JSONCoding.response(evaluation)
        }
    }

    /// `GET /u_geofences.json` and `GET /u_beacons.json`: the Ubudu web API (seed 004), read by the
    /// SDKs without a login, selected by `namespace` and/or `lat`, `lgn`, `radius` (km).
    func addUbuduRoutes(to router: Router<Context>) {
        for (path, beacons) in [("u_geofences.json", false), ("u_beacons.json", true)] {
            router.get(RouterPath(path)) { request, _ in
                if let version = request.uri.queryParameters.get("api_version"), version != "2" {
                    throw APIError(
                        .badRequest, "bad_request",
                        "api_version=\(version) is not served; this server answers api_version=2",
                        fields: [.init(field: "api_version", message: "expected 2")])
                }
                let namespace =
                    request.uri.queryParameters.get("namespace").map { String($0) } ?? Names.defaultNamespace
                let latitude = try request.query("lat", "a latitude from -90 to 90") {
                    Double($0).flatMap { (-90...90).contains($0) ? $0 : nil }
                }
                let longitude = try request.query("lgn", "a longitude from -180 to 180") {
                    Double($0).flatMap { (-180...180).contains($0) ? $0 : nil }
                }
                let radius = try request.query("radius", "a radius in kilometres from 0 to 40075.017") {
                    Double($0).flatMap { (0...40075.017).contains($0) ? $0 : nil }
                }
                var selected = try areas.list(namespace: namespace).filter { area in
                    if case .beacon = area.region { return beacons }
                    return !beacons
                }
                let place = [latitude, longitude, radius].compactMap { $0 }
                guard place.isEmpty || place.count == 3 else {
                    let missing = [("lat", latitude), ("lgn", longitude), ("radius", radius)].filter { $0.1 == nil }
                    throw APIError(
                        .badRequest, "bad_request",
                        "lat, lgn and radius go together; missing \(missing.map(\.0).joined(separator: ", "))",
                        fields: missing.map { .init(field: $0.0, message: "expected with the other two") })
                }
                if let latitude, let longitude, let radius, !beacons {
                    let centre = try Coordinate(latitude: latitude, longitude: longitude)
                    selected = selected.filter { area in
                        guard let circle = area.circle else { return true }
                        return circle.center.distance(to: centre) <= radius * 1000 + circle.radius
                    }
                }
                var echoed: [String: String] = [:]
                for (key, value) in request.uri.queryParameters { echoed[String(key)] = String(value) }
                // Read without a login: a hook URL (maybe with an API key in it) is never shown here.
                let body = UbuduFormat.response(
                    beacons: beacons, areas: selected.map(\.withoutServerHooks),
                    validUntil: Date().addingTimeInterval(3600),
                    queryParameters: echoed)
                return JSONCoding.response(body)
            }
        }
    }

    /// The area `id` of this kind, or 404.
    func area(_ kind: AreaKind, _ id: String, namespace: String) throws -> Area {
        guard let area = try areas.area(id: id, namespace: namespace), kind.holds(area) else {
            throw APIError(
                .notFound, "not_found", "no \(kind.singular) \(String(reflecting: id)) in namespace \(namespace)")
        }
        return area
    }

    /// A report's `at`: an ISO-8601 time, or nil for now.
    static func time(_ text: String?) throws -> Date? {
        guard let text else { return nil }
        guard let date = UbuduFormat.parseDate(text) else {
            throw APIError(
                .badRequest, "bad_request",
                "at: \(String(reflecting: text)) is not an ISO 8601 time such as 2026-11-21T08:00:00Z",
                fields: [.init(field: "at", message: "expected an ISO 8601 time")])
        }
        return date
    }
}

extension Area {
    /// The area as shown to someone who is not an administrator: every rule's server hook (`notify_server`)
    /// emptied, which the Ubudu format reads as "no hook", since its URL may carry an API key.
    var withoutServerHooks: Area {
        var area = self
        for index in area.rules.indices { area.rules[index].action.notifyServer = "" }
        return area
    }
}

/// The two kinds of areas the API serves under their own paths.
enum AreaKind: String, CaseIterable {
    case geofences, beacons

    var singular: String { self == .geofences ? "geofence" : "beacon region" }

    func holds(_ area: Area) -> Bool {
        if case .beacon = area.region { return self == .beacons }
        return self == .geofences
    }

    /// One area in the Ubudu format; its `id` is the path's (a different one in the body is refused).
    func read(_ body: Data, id: String) throws -> Area {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw APIError(.badRequest, "bad_request", "the body is not a JSON object describing one \(singular)")
        }
        if let given = object["id"], "\(given)" != id {
            throw APIError(
                .badRequest, "bad_request", "id: the body says \(given) but the path says \(id)",
                fields: [.init(field: "id", message: "expected \(id) or nothing")])
        }
        return try UbuduFormat.readArea(object, beacon: self == .beacons, id: id).0
    }
}
