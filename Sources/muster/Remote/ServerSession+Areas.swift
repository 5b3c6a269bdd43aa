import Foundation
import Muster
import MusterWire

extension ServerSession {
    func advert(_ device: DeviceReportOptions, advert: String, rssi: Int) async throws -> LocationAnswer {
        try requireSelf(device.user, option: "--user", why: "an advert is reported by its own user")
        return try await call {
            try await $0.reportBeaconAdvert(deviceId: device.deviceId, advert: advert, rssi: rssi, at: device.time)
        }
    }

    /// The server's answer read as the data directory's (administrators).
    func importAreas(_ document: Data) async throws -> Areas.DefineResult {
        let answer = try await call { try await $0.importAreas(document) }
        return try JSONDecoder().decode(Areas.DefineResult.self, from: answer.jsonData())
    }

    /// Both kinds' Ubudu objects read back as the data directory holds them, in its order (kind, then id).
    func areas() async throws -> [Area] {
        let document = JSONValue.object([
            "u_geofences": .array(try await call { try await $0.geofences() }),
            "u_beacons": .array(try await call { try await $0.beacons() }),
        ])
        return try UbuduFormat.read(document.jsonData()).areas.sorted { $0.identity < $1.identity }
    }

    func deviceAreas(user: String, deviceId: String) async throws -> DeviceAreas {
        try await call { try await $0.deviceAreas(deviceId: deviceId, user: user) }
    }
}
