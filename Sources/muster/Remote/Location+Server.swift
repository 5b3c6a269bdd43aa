import Foundation
import Muster
import MusterClient

extension Location {
    /// `POST /api/v1/locations`, as the logged-in user.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(report.user, option: "--user", why: "a location is reported by its own user")
        try session.requireNamespace(report.namespace)
        let answer = try await session.call {
            try await $0.publishCurrentLocation(
                deviceId: report.deviceId, latitude: lat, longitude: lng, accuracy: accuracy,
                at: report.time)
        }
        try EvaluationOutput.print(answer, json: self.report.json)
    }
}

extension Beacon {
    /// `POST /api/v1/beacons/sightings`, as the logged-in user.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(report.user, option: "--user", why: "a sighting is reported by its own user")
        try session.requireNamespace(report.namespace)
        let answer = try await session.call {
            try await $0.reportBeaconSighting(
                deviceId: report.deviceId, proximityUUID: uuid, major: major, minor: minor, rssi: rssi,
                txPower: txPower,
                at: report.time)
        }
        try EvaluationOutput.print(answer, json: self.report.json)
    }
}

extension Transition {
    /// `POST /api/v1/transitions`, as the logged-in user.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(report.user, option: "--user", why: "a transition is reported by its own user")
        try session.requireNamespace(report.namespace)
        let answer = try await session.call {
            try await $0.reportTransition(
                deviceId: report.deviceId, area: area, trigger: trigger, latitude: lat, longitude: lng,
                at: report.time)
        }
        try EvaluationOutput.print(answer, json: self.report.json)
    }
}

extension EvaluationOutput {
    /// The server's answer, printed as the local verbs print theirs.
    static func print(_ report: LocationReport, json: Bool) throws {
        if json { return try Output.json(report) }
        if let ignored = report.ignored { Output.line("ignored: \(ignored)") }
        table(
            transitions: report.transitions.map { [$0.area, $0.trigger] },
            outcomes: report.outcomes.map { [$0.area, $0.rule, $0.fired ? "yes" : "no", $0.reason ?? ""] },
            geotriggers: report.geotriggers.map {
                [$0.geotrigger, $0.fence, $0.notificationType, $0.fired ? "yes" : "no", $0.message ?? $0.reason]
            })
    }
}
