import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct PolygonTests {
    /// A unit square of 0.01° near Paris, and an L-shaped (concave) ring.
    static let square = try! Polygon([at(48.86, 2.32), at(48.86, 2.33), at(48.87, 2.33), at(48.87, 2.32)])
    static let ell = try! Polygon([
        at(0, 0), at(0, 2), at(1, 2), at(1, 1), at(2, 1), at(2, 0), at(0, 0),
    ])

    @Test(arguments: [
        (48.865, 2.325, true), (48.8600001, 2.3200001, true), (48.8599999, 2.325, false), (48.865, 2.3300001, false),
        (48.87, 2.325, true), (48.86, 2.32, true), (48.865, 2.33, true), (49.0, 2.325, false),
    ])
    func squareContainment(latitude: Double, longitude: Double, inside: Bool) {
        #expect(Self.square.contains(at(latitude, longitude)) == inside)
    }

    @Test(arguments: [
        (0.5, 0.5, true), (0.5, 1.5, true), (1.5, 0.5, true), (1.5, 1.5, false), (1.0, 1.5, true), (1.5, 1.0, true),
        (1.0000001, 1.0000001, false), (0.9999999, 0.9999999, true), (-0.1, 0.5, false), (0.5, 2.1, false),
    ])
    func concaveContainment(latitude: Double, longitude: Double, inside: Bool) {
        #expect(Self.ell.contains(at(latitude, longitude)) == inside)
    }

    @Test func theClosingVertexIsDropped() {
        #expect(Self.ell.vertices.count == 6)
    }

    @Test(arguments: [0, 1, 2])
    func ringsOfFewerThanThreeVerticesAreRefused(count: Int) {
        let ring = [at(0, 0), at(0, 1), at(1, 1)].prefix(count)
        #expect(throws: GeometryError.self) { try Polygon(Array(ring)) }
    }

    @Test func aTriangleOfTwoDistinctVerticesPlusClosureIsRefused() {
        #expect(throws: GeometryError.self) { try Polygon([at(0, 0), at(0, 1), at(0, 0)]) }
    }

    @Test func containmentDoesNotDependOnOrientationOrStartingVertex() async {
        let ring = Self.ell.vertices
        await propertyCheck(input: Gen.double(in: -0.5...2.5), Gen.double(in: -0.5...2.5), Gen.int(in: 0...5)) {
            latitude, longitude, rotation in
            let point = at(latitude, longitude)
            let rotated = Array(ring[rotation...] + ring[..<rotation])
            let expected = Self.ell.contains(point)
            #expect(try! Polygon(rotated).contains(point) == expected)
            #expect(try! Polygon(rotated.reversed()).contains(point) == expected)
            // The L is the unit square [0,2]² minus the open square (1,2]².
            let inL = (0...2).contains(latitude) && (0...2).contains(longitude) && !(latitude > 1 && longitude > 1)
            #expect(expected == inL)
        }
    }
}
