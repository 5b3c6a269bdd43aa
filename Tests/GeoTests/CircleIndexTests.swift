import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct CircleIndexTests {
    static func circle(_ latitude: Double, _ longitude: Double, _ radius: Double) -> Circle {
        try! Circle(center: at(latitude, longitude), radius: radius)
    }

    @Test(arguments: [
        ("shop", 48.86821546, 2.3231598, 100.0, 48.8686, 2.3232, true),
        ("across the antimeridian", 0.0, 179.999, 500.0, 0.0, -179.999, true),
        ("around the north pole", 89.99, 0.0, 5000.0, 89.99, 180.0, true),
        ("country-sized", 46.0, 2.0, 600_000.0, 43.3, 5.4, true),
        ("just outside", 48.86821546, 2.3231598, 100.0, 48.8694, 2.3232, false),
    ])
    func aContainingCircleIsFound(
        name: String, latitude: Double, longitude: Double, radius: Double, pointLatitude: Double,
        pointLongitude: Double,
        inside: Bool
    ) {
        var index = CircleIndex<String>()
        let fence = Self.circle(latitude, longitude, radius)
        index.insert(fence, id: name)
        let point = at(pointLatitude, pointLongitude)
        #expect(fence.contains(point) == inside)
        #expect(index.containing(point) == (inside ? [name] : []))
        if inside { #expect(index.candidates(near: point).contains(name)) }
    }

    @Test func aFarAwayCircleIsNotACandidate() {
        var index = CircleIndex<Int>()
        index.insert(Self.circle(48.8682, 2.3231, 100), id: 1)
        index.insert(Self.circle(40.7128, -74.0060, 100), id: 2)
        #expect(index.candidates(near: at(48.8682, 2.3232)) == [1])
        #expect(index.candidates(near: at(48.8682, 2.3232), within: 10_000).sorted() == [1])
        #expect(index.candidates(near: at(48.8682, 2.3232), within: 6_000_000).sorted() == [1, 2])
    }

    @Test func removeAndReplace() {
        var index = CircleIndex<Int>()
        index.insert(Self.circle(10, 10, 1000), id: 7)
        index.insert(Self.circle(10, 10, 5_000_000), id: 8)
        #expect(index.count == 2)
        #expect(index.containing(at(10, 10)).sorted() == [7, 8])
        index.insert(Self.circle(20, 20, 1000), id: 7)
        #expect(index.containing(at(10, 10)) == [8])
        #expect(index.containing(at(20, 20)).sorted() == [7, 8])
        #expect(index.remove(8) == Self.circle(10, 10, 5_000_000))
        #expect(index.remove(8) == nil)
        #expect(index.containing(at(20, 20)) == [7])
        #expect(index.count == 1)
    }

    /// Fences clustered around a few places (including the antimeridian and a pole), with radii
    /// from a shop's to a region's.
    static let fences = Gen.double(in: 0...1).array(of: 4).map { r -> Circle in
        let places: [(Double, Double)] = [(48.86, 2.33), (0, 179.99), (89.9, 0), (-33.87, 151.21)]
        let place = places[Int(r[0] * 3.999)]
        let latitude = min(max(place.0 + (r[1] - 0.5) * 0.2, -90), 90)
        var longitude = place.1 + (r[2] - 0.5) * 0.2
        if longitude > 180 { longitude -= 360 }
        return try! Circle(center: at(latitude, longitude), radius: pow(10, 1 + r[3] * 4.5))
    }

    static let points = Gen.double(in: 0...1).array(of: 3).map { r -> Coordinate in
        let places: [(Double, Double)] = [(48.86, 2.33), (0, 179.99), (89.9, 0), (-33.87, 151.21)]
        let place = places[Int(r[0] * 3.999)]
        let latitude = min(max(place.0 + (r[1] - 0.5) * 0.3, -90), 90)
        var longitude = place.1 + (r[2] - 0.5) * 0.3
        if longitude > 180 { longitude -= 360 }
        return at(latitude, longitude)
    }

    @Test func candidatesAreASupersetOfTheBruteForceAnswer() async {
        await propertyCheck(
            input: Self.fences.array(of: 1...60), Self.points.array(of: 1...20), Gen.double(in: 0...2000),
            oneOf([0.001, 0.01, 0.1])
        ) { fences, points, distance, cellSize in
            var index = CircleIndex<Int>(cellSize: cellSize, maximumCellsPerCircle: 400)
            for (id, fence) in fences.enumerated() { index.insert(fence, id: id) }
            for point in points {
                let inside = Set(fences.indices.filter { fences[$0].contains(point) })
                let near = Set(
                    fences.indices.filter { fences[$0].center.distance(to: point) <= fences[$0].radius + distance })
                let candidates = index.candidates(near: point)
                #expect(Set(candidates).isSuperset(of: inside))
                #expect(Set(candidates).count == candidates.count)
                #expect(Set(index.containing(point)) == inside)
                #expect(Set(index.candidates(near: point, within: distance)).isSuperset(of: near))
            }
        }
    }

    @Test func aRemovedCircleIsNeverACandidate() async {
        await propertyCheck(input: Self.fences.array(of: 2...40), Gen.int(in: 0...39)) { fences, victim in
            var index = CircleIndex<Int>(cellSize: 0.01, maximumCellsPerCircle: 400)
            for (id, fence) in fences.enumerated() { index.insert(fence, id: id) }
            let gone = victim % fences.count
            index.remove(gone)
            #expect(!index.candidates(near: fences[gone].center, within: 1000).contains(gone))
            #expect(index.count == fences.count - 1)
        }
    }

    @Test func aHundredThousandFencesNarrowToAFewCandidates() {
        // 100,000 fences of 50–300 m over a 1° × 1° square around Paris.
        var generator = SystemRandomNumberGenerator()
        var index = CircleIndex<Int>()
        var fences: [Circle] = []
        for id in 0..<100_000 {
            let fence = Self.circle(
                48.5 + Double.random(in: 0..<1, using: &generator), 1.8 + Double.random(in: 0..<1, using: &generator),
                Double.random(in: 50...300, using: &generator))
            fences.append(fence)
            index.insert(fence, id: id)
        }
        var totalCandidates = 0
        for probe in 0..<200 {
            let point = at(
                48.5 + Double.random(in: 0..<1, using: &generator), 1.8 + Double.random(in: 0..<1, using: &generator))
            let candidates = index.candidates(near: point)
            totalCandidates += candidates.count
            // Every tenth against all 100,000 fences (20 million distances otherwise: seconds of a debug build).
            if probe % 10 == 0 {
                #expect(Set(index.containing(point)) == Set(fences.indices.filter { fences[$0].contains(point) }))
            }
        }
        // About 100,000 / (100 × 150 cells) × overlap ≈ 10 per cell, far below 100,000.
        #expect(totalCandidates / 200 < 100)
    }
}
