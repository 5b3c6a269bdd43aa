import EventLog
import Foundation
import Geo
import Hummingbird
import Muster

/// `GET /u_geofences.json` and `GET /u_beacons.json`: the Ubudu web API (seed 004), read by the SDKs without a
/// login, selected by `namespace` and/or `lat`, `lgn`, `radius` (km).
struct UbuduController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("u_geofences.json", use: geofences)
            .get("u_beacons.json", use: beacons)
    }

    @Sendable func geofences(_ request: Request, context: API.Context) async throws -> JSONText {
        try feed(request, beacons: false)
    }

    @Sendable func beacons(_ request: Request, context: API.Context) async throws -> JSONText {
        try feed(request, beacons: true)
    }

    /// The feed of geofences or of beacon regions.
    func feed(_ request: Request, beacons: Bool) throws -> JSONText {
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
        var selected = try api.areas.list(namespace: namespace).filter { area in
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
        return JSONText(body)
    }
}
