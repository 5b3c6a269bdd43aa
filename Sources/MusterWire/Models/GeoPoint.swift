/// A position on Earth in WGS 84 degrees, written `{"lat", "lng"}` on the wire.
public struct GeoPoint: Sendable, Hashable, Codable {
    /// Latitude in degrees, -90 … 90.
    public var latitude: Double
    /// Longitude in degrees, -180 … 180.
    public var longitude: Double

    /// Creates a point from its latitude and longitude in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    private enum CodingKeys: String, CodingKey {
        case latitude = "lat"
        case longitude = "lng"
    }
}
