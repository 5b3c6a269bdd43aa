import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/locations`, `/transitions` and `/beacons/sightings`: what a device reports, evaluated by the rules; the
/// answer says which transitions and rules that made.
struct ReportController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("locations", for: .user, use: report(LocationBody.self))
            .post("transitions", for: .user, use: report(TransitionBody.self))
            .post("beacons/sightings", for: .user, use: report(SightingBody.self))
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
                user: caller.username, deviceId: deviceId, area: area, trigger: trigger, at: time, latitude: lat,
                longitude: lng, namespace: caller.namespace))
    }
}

extension SightingBody: DeviceReport {
    func report(to rules: RuleEngine, as caller: API.Caller, at time: Date?) async throws -> LocationAnswer {
        try await rules.report(
            RuleEngine.BeaconReport(
                user: caller.username, deviceId: deviceId, proximityUUID: uuid, major: major, minor: minor,
                rssi: rssi, measuredPower: txPower ?? -59, at: time, namespace: caller.namespace))
    }
}
