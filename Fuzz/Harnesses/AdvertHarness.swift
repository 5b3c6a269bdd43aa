import Geo
import Muster

extension FuzzTarget {
    /// An iBeacon advertisement as a device reports it: hex text (`POST /api/v1/beacon-reports`), or raw bytes.
    static let advert = FuzzTarget(
        name: "advert", summary: "IBeaconAdvertisement(hex:) / (bytes:) and BeaconReport(advert:)"
    ) { input in
        let text = String(decoding: input, as: UTF8.self)
        let fromHex = try? IBeaconAdvertisement(hex: text)
        let report = try? RuleEngine.BeaconReport(user: "fuzz", deviceId: "d1", advert: text, rssi: -60)
        require((fromHex == nil) == (report == nil), "the report and the parser disagree on \(text.debugDescription)")
        if let advert = try? IBeaconAdvertisement(bytes: input) {
            // The 30 bytes read back as the same advertisement, and are the input's first 30.
            require(advert.bytes == Array(input.prefix(IBeaconAdvertisement.length)), "bytes differ from the input")
            require((try? IBeaconAdvertisement(bytes: advert.bytes)) == advert, "an advert's bytes read differently")
        }
        if let advert = fromHex {
            require((try? IBeaconAdvertisement(bytes: advert.bytes)) == advert, "an advert's bytes read differently")
        }
    }
}
