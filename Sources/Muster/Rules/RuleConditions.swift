import Foundation
import Geo

/// The IF list of seed 004's area rule, in its order; the first condition not met is the reason
/// the rule does not fire.
struct RuleConditions {
    var area: Area
    var rule: AreaRule
    /// The decision's time, µs since 1970.
    var at: Int64
    /// Counts including the event being decided.
    var areaCount: Int
    var groupCount: Int?
    /// Rule notifications the user already had today, and the most allowed (nil: no limit).
    var notificationsToday: Int
    var dailyLimit: Int?
    var day: String
    /// The beacon's proximity, for beacon transitions.
    var proximity: BeaconProximity?

    func firstUnmet() -> String? {
        let instant = Date(timeIntervalSince1970: Double(at) / 1_000_000)
        if let limit = dailyLimit, notificationsToday >= limit {
            return "daily notification limit reached: \(notificationsToday) of \(limit) already sent on \(day)"
        }
        if let start = area.start, instant < start {
            return "before the area's start (\(UbuduFormat.text(start)))"
        }
        if let end = area.end, instant > end {
            return "after the area's end (\(UbuduFormat.text(end)))"
        }
        if !area.schedule.isAlwaysOpen {
            let zone = (try? TimeZone(areaZone: area.timeZone)) ?? TimeZone(identifier: "UTC")!
            let opening = area.schedule.decision(at: instant, in: zone)
            if !opening.isOpen { return "outside opening hours: \(opening)" }
        }
        if let minimum = rule.minEvents, areaCount < minimum {
            return "event \(areaCount) for this area, min_events is \(minimum)"
        }
        if let maximum = rule.maxEvents, areaCount > maximum {
            return "event \(areaCount) for this area, max_events is \(maximum) (reached)"
        }
        if let group = area.groupId, let count = groupCount {
            if let minimum = rule.minGroupEvents, count < minimum {
                return "event \(count) in group \(group), min_group_events is \(minimum)"
            }
            if let maximum = rule.maxGroupEvents, count > maximum {
                return "event \(count) in group \(group), max_group_events is \(maximum) (reached)"
            }
        }
        if case .beacon = area.region, let maximum = rule.maximumProximity {
            let seen = proximity ?? .unknown
            if !seen.isWithin(maximum) {
                return "beacon proximity \(seen.rawValue) is beyond maximum_proximity \(maximum.rawValue)"
            }
        }
        return nil
    }
}
