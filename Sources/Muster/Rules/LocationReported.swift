import EventLog
import Foundation

/// A device said where it is.
public struct LocationReported: DomainEvent, Hashable, Codable {
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
}

/// A device saw an iBeacon.
public struct BeaconSighted: DomainEvent, Hashable, Codable {
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
}
