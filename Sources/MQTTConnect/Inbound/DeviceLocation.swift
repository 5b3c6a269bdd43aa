/// The device's position from a publication's `GPS` member (`{"Latitude", "Longitude", "Altitude"}`).
public struct DeviceLocation: Sendable, Hashable {
    /// WGS 84 latitude in degrees, -90...90.
    public var latitude: Double
    /// WGS 84 longitude in degrees, -180...180.
    public var longitude: Double
    /// Height as the device reports it, when it does.
    public var altitude: Double?

    /// Creates a location.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    init(reading reader: MemberReader) throws(PublicationRefusal) {
        latitude = try reader.required("Latitude") { key throws(PublicationRefusal) in
            try reader.number(key, in: -90...90)
        }
        longitude = try reader.required("Longitude") { key throws(PublicationRefusal) in
            try reader.number(key, in: -180...180)
        }
        altitude = try reader.number("Altitude", in: -1.0e6...1.0e6)
    }
}
