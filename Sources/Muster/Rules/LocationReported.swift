import EventLog
import Foundation

/// A device said where it is.
public struct LocationReported: DomainEvent, Hashable {
    public static let type = "LocationReported"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    public var latitude: Double
    public var longitude: Double
    /// Metres; nil when the device gave none.
    public var accuracy: Double?
    /// When the fix was taken, microseconds since 1970.
    public var at: Int64

    public init(user: String, deviceId: String, latitude: Double, longitude: Double, accuracy: Double?, at: Int64) {
        self.user = user
        self.deviceId = deviceId
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.at = at
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
        w.write(fixed: latitude.bitPattern)
        w.write(fixed: longitude.bitPattern)
        w.write(accuracy != nil)
        if let accuracy { w.write(fixed: accuracy.bitPattern) }
        w.write(signed: at)
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        latitude = Double(bitPattern: try r.read(fixed: UInt64.self, "latitude"))
        longitude = Double(bitPattern: try r.read(fixed: UInt64.self, "longitude"))
        accuracy =
            try r.readBool("accuracy flag") ? Double(bitPattern: try r.read(fixed: UInt64.self, "accuracy")) : nil
        at = try r.readSigned("at")
    }
}

/// A device saw an iBeacon.
public struct BeaconSighted: DomainEvent, Hashable {
    public static let type = "BeaconSighted"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    public var proximityUUID: String
    public var major: Int
    public var minor: Int
    /// Received signal strength, dBm.
    public var rssi: Int
    /// The beacon's calibrated power at 1 m, dBm.
    public var measuredPower: Int
    /// `immediate`, `near`, `far` or `unknown`, from the two above.
    public var proximity: String
    public var at: Int64
    /// Ids of the beacon regions the beacon belongs to.
    public var regions: [String]

    public init(
        user: String, deviceId: String, proximityUUID: String, major: Int, minor: Int, rssi: Int, measuredPower: Int,
        proximity: String, at: Int64, regions: [String]
    ) {
        self.regions = regions
        self.user = user
        self.deviceId = deviceId
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.proximity = proximity
        self.at = at
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
        w.write(proximityUUID)
        w.write(signed: Int64(major))
        w.write(signed: Int64(minor))
        w.write(signed: Int64(rssi))
        w.write(signed: Int64(measuredPower))
        w.write(proximity)
        w.write(signed: at)
        w.write(varint: UInt64(regions.count))
        for region in regions { w.write(region) }
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        proximityUUID = try r.readString("proximity uuid")
        major = Int(try r.readSigned("major"))
        minor = Int(try r.readSigned("minor"))
        rssi = Int(try r.readSigned("rssi"))
        measuredPower = Int(try r.readSigned("measured power"))
        proximity = try r.readString("proximity")
        at = try r.readSigned("at")
        let count = try r.readVarint("region count")
        regions = []
        for _ in 0..<count { regions.append(try r.readString("region")) }
    }
}
