import Foundation

extension Polygon {
    /// Metres from `point` to the polygon: 0 inside or on an edge, else to the nearest edge.
    ///
    /// Measured on the local equirectangular plane around `point` (x = R·Δλ·cos φ, y = R·Δφ), which
    /// is good to well under 1 % for fences up to tens of kilometres away from the poles.
    public func distance(to point: Coordinate) -> Double {
        if contains(point) { return 0 }
        let cosPhi = cos(point.latitude * .pi / 180)
        let metresPerDegree = Earth.meanRadius * .pi / 180
        func plane(_ c: Coordinate) -> (x: Double, y: Double) {
            var dLongitude = c.longitude - point.longitude
            if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
            return (dLongitude * cosPhi * metresPerDegree, (c.latitude - point.latitude) * metresPerDegree)
        }
        var best = Double.infinity
        var previous = plane(vertices[vertices.count - 1])
        for vertex in vertices {
            let current = plane(vertex)
            let dx = current.x - previous.x
            let dy = current.y - previous.y
            let lengthSquared = dx * dx + dy * dy
            var t = 0.0
            if lengthSquared > 0 { t = min(max(-(previous.x * dx + previous.y * dy) / lengthSquared, 0), 1) }
            let x = previous.x + t * dx
            let y = previous.y + t * dy
            best = min(best, (x * x + y * y).squareRoot())
            previous = current
        }
        return best
    }

    /// Whether the straight path between two fixes touches the polygon: an end inside, or the path
    /// crossing an edge (in the plate carrée plane of `contains`).
    public func isCrossed(from start: Coordinate, to end: Coordinate) -> Bool {
        if contains(start) || contains(end) { return true }
        func orientation(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Double {
            (b.longitude - a.longitude) * (c.latitude - a.latitude) - (b.latitude - a.latitude)
                * (c.longitude - a.longitude)
        }
        var previous = vertices[vertices.count - 1]
        for vertex in vertices {
            let d1 = orientation(start, end, previous)
            let d2 = orientation(start, end, vertex)
            let d3 = orientation(previous, vertex, start)
            let d4 = orientation(previous, vertex, end)
            if (d1 > 0) != (d2 > 0), (d3 > 0) != (d4 > 0) { return true }
            previous = vertex
        }
        return false
    }
}
