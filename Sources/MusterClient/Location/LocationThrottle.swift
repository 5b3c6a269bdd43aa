import Foundation
import Geo

/// When a fix is worth publishing: the first one, then one at least ``interval`` after the last one published and
/// more than ``distance`` metres from it. Core Location's own `distanceFilter` and background intervals work the
/// same way; the seed's background publishing (`publishCurrentLocation:` on a timer) leaves the numbers open.
public struct LocationThrottle: Sendable, Hashable {
    /// The least time between two publications: 60 s by default, which keeps a moving phone's reports to about
    /// one a minute (the rules' entries and exits are seen within that).
    public var interval: Duration
    /// The least distance, in metres, from the last published position: 50 m by default, above a phone's usual
    /// accuracy outdoors, so a device standing still is not reported again and again.
    public var distance: Double

    /// A throttle publishing at most every `interval` and only after moving more than `distance` metres.
    public init(interval: Duration = .seconds(60), distance: Double = 50) {
        self.interval = interval
        self.distance = distance
    }

    /// Whether `fix`, taken at `time`, is to be published after `last` (published at `lastTime`); always when
    /// nothing was published yet.
    public func admits(_ fix: LocationFix, at time: Date, after last: LocationFix?, at lastTime: Date?) -> Bool {
        guard let last, let lastTime else { return true }
        let (seconds, attoseconds) = interval.components
        guard time.timeIntervalSince(lastTime) >= Double(seconds) + Double(attoseconds) / 1e18 else { return false }
        guard let from = try? Coordinate(latitude: last.latitude, longitude: last.longitude),
            let to = try? Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        else {
            // Off the globe: the server refuses it with the reason, which is better than dropping it silently.
            return true
        }
        return from.distance(to: to) > distance
    }
}
