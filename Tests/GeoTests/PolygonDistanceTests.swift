import Foundation
import Testing

@testable import Geo

@Suite struct PolygonDistanceTests {
    /// A square of about 100 m × 100 m near the Louvre.
    static let square = try! Polygon([
        at(48.8600, 2.3350), at(48.8609, 2.3350), at(48.8609, 2.3364), at(48.8600, 2.3364),
    ])

    @Test func insideIsZeroAndOutsideIsTheWayToTheNearestEdge() {
        #expect(Self.square.distance(to: at(48.8604, 2.3357)) == 0)
        let south = north(of: at(48.8600, 2.3357), by: -50)
        #expect(abs(Self.square.distance(to: south) - 50) < 0.5)
        let corner = north(of: at(48.8600, 2.3350), by: -30)
        let beyond = try! Coordinate(
            latitude: corner.latitude, longitude: corner.longitude - 40 / (metresPerDegree * cos(48.86 * .pi / 180)))
        // 30 m south and 40 m west of the south-west corner: 50 m away.
        #expect(abs(Self.square.distance(to: beyond) - 50) < 0.5)
    }

    @Test func aPathThroughThePolygonCrossesItAndOneBesideItDoesNot() {
        let southOf = at(48.8590, 2.3357)
        let northOf = at(48.8620, 2.3357)
        #expect(Self.square.isCrossed(from: southOf, to: northOf))
        #expect(!Self.square.isCrossed(from: at(48.8590, 2.3340), to: at(48.8620, 2.3340)))
        #expect(Self.square.isCrossed(from: at(48.8604, 2.3357), to: northOf))
    }
}
