import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct CoordinateTests {
    struct KnownDistance: Sendable, CustomTestStringConvertible {
        let name: String
        let from: Coordinate
        let to: Coordinate
        let metres: Double
        let relativeTolerance: Double
        var testDescription: String { name }
    }

    static let known: [KnownDistance] = [
        // Reference values from published great-circle distances (within the stated tolerance).
        .init(
            name: "Paris–London", from: at(48.8566, 2.3522), to: at(51.5074, -0.1278), metres: 343_500,
            relativeTolerance: 0.005),
        .init(
            name: "New York–Los Angeles", from: at(40.7128, -74.0060), to: at(34.0522, -118.2437), metres: 3_936_000,
            relativeTolerance: 0.005),
        .init(
            name: "Sydney–Melbourne", from: at(-33.8688, 151.2093), to: at(-37.8136, 144.9631), metres: 713_400,
            relativeTolerance: 0.005),
        // Exact values on the mean sphere.
        .init(
            name: "one degree of latitude", from: at(10, 20), to: at(11, 20), metres: metresPerDegree,
            relativeTolerance: 1e-12),
        .init(
            name: "a quarter of the equator", from: at(0, 0), to: at(0, 90), metres: Earth.meanRadius * .pi / 2,
            relativeTolerance: 1e-12),
        .init(
            name: "antipodes", from: at(0, 0), to: at(0, 180), metres: Earth.meanRadius * .pi, relativeTolerance: 1e-12),
        .init(
            name: "pole to pole", from: at(90, 0), to: at(-90, 0), metres: Earth.meanRadius * .pi,
            relativeTolerance: 1e-12),
        .init(
            name: "across the antimeridian", from: at(0, 179.5), to: at(0, -179.5), metres: metresPerDegree,
            relativeTolerance: 1e-9),
        .init(name: "same point", from: at(48.8682, 2.3231), to: at(48.8682, 2.3231), metres: 0, relativeTolerance: 0),
    ]

    @Test(arguments: known) func distanceMatchesAKnownValue(_ case: KnownDistance) {
        let measured = `case`.from.distance(to: `case`.to)
        #expect(abs(measured - `case`.metres) <= `case`.metres * `case`.relativeTolerance + 1e-6)
    }

    @Test func aMetreIsAMetreAtFenceScale() {
        let shop = at(48.86821546, 2.3231598)
        #expect(abs(shop.distance(to: north(of: shop, by: 1)) - 1) < 1e-6)
        #expect(abs(shop.distance(to: east(of: shop, by: 100)) - 100) < 1e-3)
    }

    @Test(arguments: [
        (91.0, 0.0), (-90.000001, 0.0), (0.0, 180.5), (0.0, -181.0), (Double.nan, 0.0), (0.0, Double.infinity),
    ])
    func coordinatesOffTheEarthAreRefused(latitude: Double, longitude: Double) {
        #expect(throws: GeometryError.self) { try Coordinate(latitude: latitude, longitude: longitude) }
    }

    @Test(arguments: [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)])
    func theEdgesOfTheRangesAreAccepted(latitude: Double, longitude: Double) throws {
        let point = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(point.latitude == latitude && point.longitude == longitude)
    }

    @Test func theErrorNamesTheValue() {
        #expect(throws: GeometryError(.latitudeOutOfRange, "latitude 91.0 is not within -90...90")) {
            try Coordinate(latitude: 91, longitude: 0)
        }
    }

    @Test func distanceIsSymmetricAndNotNegative() async {
        await propertyCheck(input: anyCoordinate, anyCoordinate) { a, b in
            let ab = a.distance(to: b)
            #expect(ab >= 0)
            #expect(ab <= Earth.meanRadius * .pi + 1e-6)
            #expect(abs(ab - b.distance(to: a)) <= 1e-6)
            #expect(a.distance(to: a) == 0)
        }
    }

    @Test func distanceSatisfiesTheTriangleInequality() async {
        await propertyCheck(input: anyCoordinate, anyCoordinate, anyCoordinate) { a, b, c in
            #expect(a.distance(to: c) <= a.distance(to: b) + b.distance(to: c) + 1e-6)
        }
    }
}
