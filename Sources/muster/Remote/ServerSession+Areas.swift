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

    func deviceAreas(user: String, deviceId: String) async throws -> DeviceAreas {
        try await call { try await $0.deviceAreas(deviceId: deviceId, user: user) }
    }
}
