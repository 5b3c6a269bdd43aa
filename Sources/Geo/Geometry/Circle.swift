import Foundation

/// A circular fence: every point within `radius` metres (great-circle) of `center`.
public struct Circle: Sendable, Hashable {
    /// The centre of the fence.
    public let center: Coordinate
    /// The radius in metres (the web API's kilometres are converted on import).
    public let radius: Double

    /// Creates a circle; the radius must be finite and not negative.
    public init(center: Coordinate, radius: Double) throws(GeometryError) {
        guard radius.isFinite, radius >= 0 else {
            throw GeometryError(.badRadius, "radius \(radius) m is not a finite, non-negative number of metres")
        }
        self.center = center
        self.radius = radius
    }

    /// Whether `point` lies inside or on the circle.
    public func contains(_ point: Coordinate) -> Bool {
        center.distance(to: point) <= radius
    }

    /// Whether the straight path between two fixes passes within the radius: a device that
    /// jumped over the fence between two location updates did cross it.
    ///
    /// The segment is projected onto a local equirectangular plane centred on the circle
    /// (x = R·Δλ·cos φ₀, y = R·Δφ, Δλ taken the short way round the antimeridian) and its
    /// distance to the centre compared with the radius. The plane differs from the sphere by
    /// well under 1 % for segments of a few tens of kilometres away from the poles, which is far
    /// beyond any GPS jump between two fixes; both end points being inside also counts.
    public func isCrossed(from start: Coordinate, to end: Coordinate) -> Bool {
        if contains(start) || contains(end) { return true }
        let (ax, ay) = localPlane(start)
        let (bx, by) = localPlane(end)
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 {
            t = min(max(-(ax * dx + ay * dy) / lengthSquared, 0), 1)
        }
        let px = ax + t * dx
        let py = ay + t * dy
        return (px * px + py * py).squareRoot() <= radius
    }

    /// `point` in metres east and north of the centre on the local equirectangular plane.
    func localPlane(_ point: Coordinate) -> (x: Double, y: Double) {
        var dLongitude = point.longitude - center.longitude
        if dLongitude > 180 { dLongitude -= 360 }
        if dLongitude < -180 { dLongitude += 360 }
        let phi0 = center.latitude * .pi / 180
        let x = Earth.meanRadius * dLongitude * .pi / 180 * cos(phi0)
        let y = Earth.meanRadius * (point.latitude - center.latitude) * .pi / 180
        return (x, y)
    }
}
