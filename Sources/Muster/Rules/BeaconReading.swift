import EventLog
import Geo

/// One reading of a beacon by a device, kept for the nearest-beacon hand-over.
struct BeaconReading: Sendable, Hashable {
    /// `UUID/major/minor`.
    var beacon: String
    var rssi: Int
    /// µs since 1970.
    var at: Int64

    /// Readings older than this (µs) before the newest no longer count.
    static let keptFor: Int64 = 30_000_000
    /// Most readings kept per device.
    static let kept = 64

    static func recent(_ readings: [BeaconReading], at now: Int64) -> [BeaconReading] {
        Array(readings.filter { now - $0.at <= keptFor }.suffix(kept))
    }

    static func encode(_ readings: [BeaconReading]) -> [UInt8] {
        var w = ByteWriter(capacity: 16 + readings.count * 48)
        w.write(varint: UInt64(readings.count))
        for reading in readings {
            w.write(reading.beacon)
            w.write(signed: Int64(reading.rssi))
            w.write(signed: reading.at)
        }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> [BeaconReading] {
        try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            let count = try r.readVarint("reading count")
            var readings: [BeaconReading] = []
            for _ in 0..<count {
                readings.append(
                    BeaconReading(
                        beacon: try r.readString("beacon"), rssi: Int(try r.readSigned("rssi")),
                        at: try r.readSigned("at")))
            }
            return readings
        }
    }

    /// The hand-over after `readings` (oldest first), each taken as one scan.
    static func handOver(_ readings: [BeaconReading]) -> BeaconHandOver<String> {
        var handOver = BeaconHandOver<String>(minimumSightings: 1)
        for reading in readings.sorted(by: { $0.at < $1.at }) {
            handOver.record(reading.beacon, rssi: reading.rssi, at: Double(reading.at) / 1_000_000)
        }
        return handOver
    }
}

extension BeaconSighted {
    /// `UUID/major/minor`: which beacon it was.
    var beacon: String { "\(proximityUUID)/\(major)/\(minor)" }
}
