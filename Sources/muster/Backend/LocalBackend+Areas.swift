import Foundation
import Muster
import MusterWire

extension LocalBackend {
    func advert(_ device: DeviceReportOptions, advert: String, rssi: Int) async throws -> LocationAnswer {
        try await RuleEngine(log: log).report(
            try RuleEngine.BeaconReport(
                user: device.user, deviceId: device.deviceId, advert: advert, rssi: rssi, at: device.time,
                namespace: namespace))
    }

    func importAreas(_ document: Data) async throws -> Areas.DefineResult {
        try await Areas(log: log).importAreas(document, namespace: namespace, actor: "cli")
    }

    func areas() async throws -> [Area] {
        try Areas(log: log).list(namespace: namespace)
    }

    func deviceAreas(user: String, deviceId: String) async throws -> DeviceAreas {
        try requireUser(user)
        return try Areas(log: log).monitoring(user: user, deviceId: deviceId, namespace: namespace)
    }
}
