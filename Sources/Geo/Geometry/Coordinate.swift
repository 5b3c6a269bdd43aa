import Foundation

/// A WGS84 position: latitude and longitude in decimal degrees, validated on creation.
public struct Coordinate: Sendable, Hashable, CustomStringConvertible {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// Creates a coordinate, refusing values that are not on the Earth.
    public init(latitude: Double, longitude: Double) throws(GeometryError) {
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw GeometryError(.latitudeOutOfRange, "latitude \(latitude) is not within -90...90")
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw GeometryError(.longitudeOutOfRange, "longitude \(longitude) is not within -180...180")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `(lat, lng)` in degrees.
    public var description: String { "(\(latitude), \(longitude))" }

    /// The great-circle distance to `other` in metres on the mean sphere (haversine formula).
    ///
    /// Haversine keeps full precision for short distances, which is what fences need; on the
    /// mean sphere it differs from the WGS84 ellipsoid's geodesic by at most about 0.5 %.
    public func distance(to other: Coordinate) -> Double {
        let phi1 = latitude * .pi / 180
        let phi2 = other.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude) * .pi / 180
        let sinPhi = sin(dPhi / 2)
        let sinLambda = sin(dLambda / 2)
        let a = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        let clamped = min(max(a, 0), 1)
        return 2 * Earth.meanRadius * atan2(clamped.squareRoot(), (1 - clamped).squareRoot())
    }
}
