import Foundation
import Geo
import Hummingbird
import Muster
import MusterWire

/// `/locations`, `/transitions`, `/beacons/sightings` and `/beacons/adverts`: what a device reports, evaluated by
/// the rules; the answer says which transitions and rules that made. `/devices/{id}/areas`: what the device
/// monitors and is active in.
struct ReportController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("locations", for: .user, use: report(LocationBody.self))
            .post("transitions", for: .user, use: report(TransitionBody.self))
            .post("beacons/sightings", for: .user, use: report(SightingBody.self))
            .post("beacons/adverts", for: .user, use: report(AdvertBody.self))
            .get("devices/:deviceId/areas", for: .user, use: areas)
    }

    /// The device's position and its monitored and active areas; an administrator may name another `user`.
    @Sendable func areas(_ request: Request, context: API.Context, caller: API.Caller) async throws -> DeviceAreas {
        let deviceId = try context.pathParameter("deviceId")
        var user = caller.username
        if let named = request.uri.queryParameters.get("user"), named != caller.username {
            guard caller.isAdmin else {
                throw APIError(.forbidden, "forbidden", "user: only an administrator reads another user's device")
            }
            user = named
        }
        return try api.areas.monitoring(user: user, deviceId: deviceId, namespace: caller.namespace)
    }

    /// The handler of one kind of report: the body read, its time checked, the rules run as the caller.
    func report<Body: DeviceReport>(
        _: Body.Type
    ) -> @Sendable (Request, API.Context, API.Caller) async throws -> LocationAnswer {
        { [api] request, context, caller in
            let body = try await request.decode(as: Body.self, context: context)
            return try await body.report(to: api.rules, as: caller, at: try Self.time(body.at))
        }
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

/// The body of a device's report, handed to the rule engine.
protocol DeviceReport: Decodable, Sendable {
    /// When it happened, as sent (ISO 8601); nil for now.
    var at: String? { get }
    /// Runs the rules on the report of `caller`'s device.
    func report(to rules: RuleEngine, as caller: API.Caller, at time: Date?) async throws -> LocationAnswer
}

extension LocationBody: DeviceReport {
    func report(to rules: RuleEngine, as caller: API.Caller, at time: Date?) async throws -> LocationAnswer {
        try await rules.report(
            RuleEngine.LocationReport(
                user: caller.username, deviceId: deviceId, latitude: lat, longitude: lng, accuracy: accuracy,
                at: time, namespace: caller.namespace))
    }
}

extension TransitionBody: DeviceReport {
    func report(to rules: RuleEngine, as caller: API.Caller, at time: Date?) async throws -> LocationAnswer {
        try await rules.report(
            RuleEngine.TransitionReport(
                user: caller.username, deviceId: deviceId, area: area, kind: try AreaKind.domain(kind),
                trigger: trigger,
                at: time, latitude: lat, longitude: lng, namespace: caller.namespace))
    }
}

extension AdvertBody: DeviceReport {
    func report(to rules: RuleEngine, as caller: API.Caller, at time: Date?) async throws -> LocationAnswer {
        try await rules.report(
            RuleEngine.BeaconReport(
                user: caller.username, deviceId: deviceId, advert: advert, rssi: rssi, at: time,
                namespace: caller.namespace))
    }
}

extension SightingBody: DeviceReport {
    func report(to rules: RuleEngine, as caller: API.Caller, at time: Date?) async throws -> LocationAnswer {
        try await rules.report(
            RuleEngine.BeaconReport(
                user: caller.username, deviceId: deviceId, proximityUUID: uuid, major: major, minor: minor,
                rssi: rssi, measuredPower: txPower ?? -59,
                proximity: try proximity.map(BeaconProximity.init(reported:)),
                at: time, namespace: caller.namespace))
    }
}
