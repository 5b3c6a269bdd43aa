import MusterWire

/// A point on the map, given as `{"longitude", "latitude"}` or as a GeoJSON Point `[longitude, latitude]`.
public struct MapPoint: Sendable, Hashable, Codable {
    /// Degrees east, -180...180.
    public var longitude: Double
    /// Degrees north, -90...90.
    public var latitude: Double

    /// Creates a point.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// Reads either form; nil when `json` is neither or the coordinates are out of range.
    public init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        let longitude: Double?
        let latitude: Double?
        if object["type"]?.stringValue == "Point" {
            guard let coordinates = object["coordinates"]?.arrayValue, coordinates.count == 2 else { return nil }
            longitude = coordinates[0].doubleValue
            latitude = coordinates[1].doubleValue
        } else {
            longitude = object["longitude"]?.doubleValue
            latitude = object["latitude"]?.doubleValue
        }
        guard let longitude, let latitude, (-180...180).contains(longitude), (-90...90).contains(latitude) else {
            return nil
        }
        self.init(longitude: longitude, latitude: latitude)
    }

    /// The simple form, as the response object carries a current location.
    public var json: JSONValue {
        .object(["longitude": .number(longitude), "latitude": .number(latitude)])
    }
}
