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
