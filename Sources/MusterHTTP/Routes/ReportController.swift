import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/locations`, `/transitions` and `/beacons/sightings`: what a device reports, evaluated by the rules; the
/// answer says which transitions and rules that made.
struct ReportController {
    let api: API

    var endpoints: RouteCollection<API.Context> {
        RouteCollection(context: API.Context.self)
            .post("locations", use: location)
            .post("transitions", use: transition)
            .post("beacons/sightings", use: sighting)
    }

    /// The body of `POST /locations`.
    struct Location: Decodable {
        var deviceId: String
        var lat: Double
        var lng: Double
        var accuracy: Double?
        var at: String?
    }

    @Sendable func location(_ request: Request, context: API.Context) async throws -> LocationAnswer {
        let caller = try context.caller()
        let body = try await request.decode(as: Location.self, context: context)
        return try await api.rules.report(
            RuleEngine.LocationReport(
                user: caller.username, deviceId: body.deviceId, latitude: body.lat, longitude: body.lng,
                accuracy: body.accuracy, at: try Self.time(body.at), namespace: caller.namespace))
    }

    /// The body of `POST /transitions`.
    struct Transition: Decodable {
        var deviceId: String
        var area: String
        var trigger: String
        var lat: Double?
        var lng: Double?
        var at: String?
    }

    @Sendable func transition(_ request: Request, context: API.Context) async throws -> LocationAnswer {
        let caller = try context.caller()
        let body = try await request.decode(as: Transition.self, context: context)
        return try await api.rules.report(
            RuleEngine.TransitionReport(
                user: caller.username, deviceId: body.deviceId, area: body.area, trigger: body.trigger,
                at: try Self.time(body.at), latitude: body.lat, longitude: body.lng, namespace: caller.namespace))
    }

    /// The body of `POST /beacons/sightings`.
    struct Sighting: Decodable {
        var deviceId: String
        var uuid: String
        var major: Int
        var minor: Int
        var rssi: Int
        var txPower: Int?
        var at: String?
    }

    @Sendable func sighting(_ request: Request, context: API.Context) async throws -> LocationAnswer {
        let caller = try context.caller()
        let body = try await request.decode(as: Sighting.self, context: context)
        return try await api.rules.report(
            RuleEngine.BeaconReport(
                user: caller.username, deviceId: body.deviceId, proximityUUID: body.uuid, major: body.major,
                minor: body.minor, rssi: body.rssi, measuredPower: body.txPower ?? -59, at: try Self.time(body.at),
                namespace: caller.namespace))
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
