import Foundation
import MQTTConnect
import MusterWire

extension FuzzTarget {
    /// What an MQTT device publishes on its topic (replies, settings receipts, location, beacons, sensors,
    /// pictures, scanned codes), as the bridge reads it.
    static let mqtt = FuzzTarget(name: "mqtt", summary: "DevicePublication.read on a device's message") { input in
        let limit = 64 * 1024
        switch DevicePublication.read(Data(input), sizeLimit: limit, inputKeys: ["Text1", "Choice"]) {
        case .failure(let refusal):
            require(!refusal.reason.isEmpty, "a refusal without a reason")
        case .success(let publication):
            require(input.count <= limit, "a message over the limit was read")
            // The message as the bridge stores it reads back as the same publication.
            let again = DevicePublication.read(
                JSONValue.object(publication.json).jsonData(), sizeLimit: .max, inputKeys: ["Text1", "Choice"])
            require(again == .success(publication), "a publication does not read back from its own JSON")
        }
    }
}
