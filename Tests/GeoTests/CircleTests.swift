import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct CircleTests {
    /// Geofence 52 of the seed's web-API example: radius 0.1 km, stored as 100 m.
    static let demo = try! Circle(center: at(48.86821546, 2.3231598), radius: 100)

    @Test(arguments: [
        (0.0, true), (50.0, true), (99.9, true), (99.999, true), (100.001, false), (100.1, false), (1000.0, false),
    ])
    func containmentDependsOnlyOnTheDistanceFromTheCentre(metres: Double, inside: Bool) {
        #expect(Self.demo.contains(north(of: Self.demo.center, by: metres)) == inside)
        #expect(Self.demo.contains(north(of: Self.demo.center, by: -metres)) == inside)
        #expect(Self.demo.contains(east(of: Self.demo.center, by: metres)) == inside)
    }

    @Test func aZeroRadiusCircleHoldsOnlyItsCentre() throws {
        let point = try Circle(center: at(1, 1), radius: 0)
        #expect(point.contains(at(1, 1)))
        #expect(!point.contains(north(of: at(1, 1), by: 0.01)))
    }

    @Test(arguments: [-1.0, -0.0001, Double.nan, Double.infinity])
    func badRadiiAreRefused(radius: Double) {
        #expect(throws: GeometryError.self) { try Circle(center: at(0, 0), radius: radius) }
    }

    struct Jump: Sendable, CustomTestStringConvertible {
        let name: String
        let from: Coordinate
        let to: Coordinate
        let crosses: Bool
        var testDescription: String { name }
    }

    static let jumps: [Jump] = {
        let c = demo.center
        return [
            .init(
                name: "south to north through the centre", from: north(of: c, by: -500), to: north(of: c, by: 500),
                crosses: true),
            .init(
                name: "west to east 90 m north of the centre", from: east(of: north(of: c, by: 90), by: -800),
                to: east(of: north(of: c, by: 90), by: 800), crosses: true),
            .init(
                name: "west to east 110 m north of the centre", from: east(of: north(of: c, by: 110), by: -800),
                to: east(of: north(of: c, by: 110), by: 800), crosses: false),
            .init(
                name: "stops short of the fence", from: north(of: c, by: -500), to: north(of: c, by: -150),
                crosses: false),
            .init(name: "ends inside", from: north(of: c, by: -500), to: north(of: c, by: -50), crosses: true),
            .init(name: "starts inside", from: c, to: north(of: c, by: 5000), crosses: true),
            .init(name: "stands still outside", from: north(of: c, by: 200), to: north(of: c, by: 200), crosses: false),
            .init(
                // y = x − 300 m: 212 m from the centre at its nearest.
                name: "passes by diagonally", from: north(of: c, by: -300),
                to: east(of: north(of: c, by: 300), by: 600), crosses: false),
            .init(
                // y = x − 100 m: 71 m from the centre at its nearest, both ends outside.
                name: "cuts a corner diagonally", from: east(of: north(of: c, by: -300), by: -200),
                to: east(of: north(of: c, by: 300), by: 400), crosses: true),
        ]
    }()

    @Test(arguments: jumps) func aFixThatJumpsOverTheFenceCrossesIt(_ jump: Jump) {
        #expect(Self.demo.isCrossed(from: jump.from, to: jump.to) == jump.crosses)
        #expect(Self.demo.isCrossed(from: jump.to, to: jump.from) == jump.crosses)
    }

    @Test func aJumpAcrossTheAntimeridianIsMeasuredTheShortWay() throws {
        let fence = try Circle(center: at(0, 180), radius: 1000)
        #expect(fence.isCrossed(from: at(0, 179.9), to: at(0, -179.9)))
        #expect(!fence.isCrossed(from: at(0.5, 179.9), to: at(0.5, -179.9)))
    }

    @Test func containmentAgreesWithTheDistance() async {
        await propertyCheck(input: temperateCoordinate, Gen.double(in: 0...5000), Gen.double(in: -6000...6000)) {
            centre, radius, offset in
            let circle = try! Circle(center: centre, radius: radius)
            let point = north(of: centre, by: min(max(offset, -6000), 6000) * 0.999)
            #expect(circle.contains(point) == (centre.distance(to: point) <= radius))
        }
    }

    @Test func anyPointOfTheSegmentInsideTheCircleMeansItIsCrossed() async {
        let offset = Gen.double(in: -3000...3000)
        await propertyCheck(input: temperateCoordinate, Gen.double(in: 10...1500), offset.array(of: 4)) {
            centre, radius, offsets in
            let circle = try! Circle(center: centre, radius: radius)
            let a = east(of: north(of: centre, by: offsets[0]), by: offsets[1])
            let b = east(of: north(of: centre, by: offsets[2]), by: offsets[3])
            let crossed = circle.isCrossed(from: a, to: b)
            for step in 0...40 {
                let t = Double(step) / 40
                let sample = at(
                    a.latitude + t * (b.latitude - a.latitude), a.longitude + t * (b.longitude - a.longitude))
                let distance = centre.distance(to: sample)
                if distance <= radius * 0.99 { #expect(crossed) }
            }
            // Nothing of the segment comes near: the projection must not invent a crossing.
            let nearest = (0...200).map { step -> Double in
                let t = Double(step) / 200
                return centre.distance(
                    to: at(a.latitude + t * (b.latitude - a.latitude), a.longitude + t * (b.longitude - a.longitude)))
            }.min()!
            if nearest > radius * 1.01 + 40 { #expect(!crossed) }
        }
    }
}
