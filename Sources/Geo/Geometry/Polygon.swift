/// A polygonal fence: one ring of vertices, its edges straight lines in latitude/longitude.
///
/// Edges are straight in the plate carrée plane (longitude as x, latitude as y), not great
/// circles; for shop- and district-sized fences the difference is centimetres. A ring that
/// crosses the antimeridian (±180°) is not supported: split it into two polygons. Holes are
/// not supported either.
public struct Polygon: Sendable, Hashable {
    /// The ring's vertices, without a repeated closing vertex.
    public let vertices: [Coordinate]

    /// Creates a polygon; a closing vertex equal to the first is dropped, and at least three
    /// vertices must remain.
    public init(_ ring: [Coordinate]) throws(GeometryError) {
        var ring = ring
        if ring.count > 1, ring.first == ring.last { ring.removeLast() }
        guard ring.count >= 3 else {
            throw GeometryError(.tooFewVertices, "a polygon ring needs 3 or more vertices, got \(ring.count)")
        }
        vertices = ring
    }

    /// Whether `point` lies inside the ring or on one of its edges (ray casting, even-odd rule).
    public func contains(_ point: Coordinate) -> Bool {
        let x = point.longitude
        let y = point.latitude
        var inside = false
        var j = vertices.count - 1
        for i in vertices.indices {
            let xi = vertices[i].longitude
            let yi = vertices[i].latitude
            let xj = vertices[j].longitude
            let yj = vertices[j].latitude
            if Self.isOnSegment(x, y, xi, yi, xj, yj) { return true }
            if (yi > y) != (yj > y) {
                let crossingX = xi + (y - yi) / (yj - yi) * (xj - xi)
                if x < crossingX { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Whether (x, y) lies on the segment from (x1, y1) to (x2, y2), within a tolerance of about
    /// a millimetre, so that boundary points count as inside just as they do for circles.
    private static func isOnSegment(
        _ x: Double, _ y: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double
    ) -> Bool {
        let tolerance = 1e-8
        guard x >= min(x1, x2) - tolerance, x <= max(x1, x2) + tolerance,
            y >= min(y1, y2) - tolerance, y <= max(y1, y2) + tolerance
        else { return false }
        let cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        let length = ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)).squareRoot()
        return abs(cross) <= tolerance * max(length, tolerance)
    }
}
