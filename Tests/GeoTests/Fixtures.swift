import Foundation
import PropertyBased

@testable import Geo

/// A coordinate known to be valid; traps on a typo in a fixture.
func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    try! Coordinate(latitude: latitude, longitude: longitude)
}

/// Metres per degree of latitude on the mean sphere.
let metresPerDegree = Earth.meanRadius * .pi / 180

/// The point `metres` due north of `point` (due south when negative).
func north(of point: Coordinate, by metres: Double) -> Coordinate {
    at(point.latitude + metres / metresPerDegree, point.longitude)
}

/// The point `metres` due east of `point` along its parallel.
func east(of point: Coordinate, by metres: Double) -> Coordinate {
    at(point.latitude, point.longitude + metres / (metresPerDegree * cos(point.latitude * .pi / 180)))
}

/// Any coordinate on the Earth.
let anyCoordinate = Gen.double(in: -90.0...90.0).array(of: 2).map { pair in
    at(pair[0], pair[1] * 2)
}

/// A coordinate away from the poles, where a local plane is a fair model.
let temperateCoordinate = Gen.double(in: -70.0...70.0).array(of: 2).map { pair in
    at(pair[0], pair[1] * 2.5)
}

/// One of `values`, uniformly.
func oneOf<T: Sendable>(_ values: [T]) -> Generator<T, Shrink.Integer<Int>> {
    Gen.int(in: 0...(values.count - 1)).map { values[$0] }
}
