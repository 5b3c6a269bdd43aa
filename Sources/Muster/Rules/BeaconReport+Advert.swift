import EventLog
import Foundation
import Geo

extension RuleEngine.BeaconReport {
    /// A sighting read from the raw iBeacon advertisement a device received (seed 004's byte layout, as hex
    /// text): its UUID, major, minor and measured power. A bad advert is refused as one `invalidArgument`
    /// naming the offset and what was expected there, e.g. `advert: offset 5: expected company id 4C 00 (Apple),
    /// found 59 00`.
    public init(
        user: String, deviceId: String, advert: String, rssi: Int, at: Date? = nil,
        namespace: String = Names.defaultNamespace
    ) throws {
        let parsed: IBeaconAdvertisement
        do {
            parsed = try IBeaconAdvertisement(hex: advert)
        } catch {
            throw MusterError(
                .invalidArgument,
                "advert: offset \(error.offset): expected \(error.expected), found \(error.found) (the \(IBeaconAdvertisement.length)-byte iBeacon advertising data as hex, e.g. 02 01 06 1A FF 4C 00 02 15 …)"
            )
        }
        self.init(
            user: user, deviceId: deviceId, proximityUUID: parsed.proximityUUID.uuidString, major: Int(parsed.major),
            minor: Int(parsed.minor), rssi: rssi, measuredPower: Int(parsed.measuredPower), at: at,
            namespace: namespace)
    }
}
