import Foundation
import MusterClient
import Testing

/// When the background publisher sends a fix: the first, then one late enough and far enough from the last.
@Suite struct LocationThrottleTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let home = LocationFix(latitude: 48.8566, longitude: 2.3522)

    /// `metres` north of home.
    func north(_ metres: Double) -> LocationFix {
        LocationFix(latitude: 48.8566 + metres / 111_195, longitude: 2.3522)
    }

    @Test func theFirstFixIsAlwaysPublished() {
        #expect(LocationThrottle().admits(home, at: start, after: nil, at: nil))
    }

    @Test func theDefaultsAreAMinuteAndFiftyMetres() {
        let throttle = LocationThrottle()
        #expect(throttle.interval == .seconds(60))
        #expect(throttle.distance == 50)
    }

    @Test(arguments: [
        (10.0, 500.0, false),  // far but too soon
        (59.0, 500.0, false),
        (60.0, 500.0, true),  // the interval is inclusive
        (600.0, 40.0, false),  // late but too close
        (600.0, 60.0, true),
    ])
    func aLaterFixNeedsBothTimeAndDistance(seconds: Double, metres: Double, admitted: Bool) {
        let throttle = LocationThrottle(interval: .seconds(60), distance: 50)
        #expect(
            throttle.admits(north(metres), at: start.addingTimeInterval(seconds), after: home, at: start) == admitted)
    }
}
