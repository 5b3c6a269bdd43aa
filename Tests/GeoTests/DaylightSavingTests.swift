import Foundation
import Testing

@testable import Geo

/// Schedule times are real seconds since local midnight (seed 004 line 71, seeds README): on a
/// 23-hour day `open: 32400` is 10:00 on the wall clock, on a 25-hour day 08:00.
@Suite struct DaylightSavingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let zone: String
        let date: String
        /// The wall-clock offsets before and after the change.
        let before: String
        let after: String
        /// The wall-clock hour at which `open: 32400` / `close: 54000` fall on that day.
        let opensAt: Int
        let closesAt: Int
        var testDescription: String { "\(zone) \(date)" }
    }

    static let cases: [Case] = [
        .init(zone: "Europe/Paris", date: "2024-03-31", before: "+01:00", after: "+02:00", opensAt: 10, closesAt: 16),
        .init(zone: "Europe/Paris", date: "2024-10-27", before: "+02:00", after: "+01:00", opensAt: 8, closesAt: 14),
        .init(
            zone: "America/New_York", date: "2024-03-10", before: "-05:00", after: "-04:00", opensAt: 10, closesAt: 16),
        .init(
            zone: "America/New_York", date: "2024-11-03", before: "-04:00", after: "-05:00", opensAt: 8, closesAt: 14),
        .init(
            zone: "Australia/Sydney", date: "2024-10-06", before: "+10:00", after: "+11:00", opensAt: 10, closesAt: 16),
        .init(
            zone: "Australia/Sydney", date: "2024-04-07", before: "+11:00", after: "+10:00", opensAt: 8, closesAt: 14),
    ]

    static let nineToThree = everyDay(32400, 54000)

    static func wall(_ c: Case, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return instant("\(c.date)T\(two(hour)):\(two(minute)):\(two(second))\(c.after)")
    }

    @Test(arguments: cases) func openAndCloseCountRealSecondsFromMidnight(_ c: Case) {
        let area = zone(c.zone)
        #expect(!Self.nineToThree.isOpen(at: Self.wall(c, c.opensAt - 1, 59, 59), in: area))
        #expect(Self.nineToThree.isOpen(at: Self.wall(c, c.opensAt, 0), in: area))
        #expect(Self.nineToThree.isOpen(at: Self.wall(c, c.closesAt - 1, 59, 59), in: area))
        #expect(!Self.nineToThree.isOpen(at: Self.wall(c, c.closesAt, 0), in: area))
    }

    @Test(arguments: cases) func aRefusalOnTheDayOfTheChangeGivesTheHoursOnTheClockToo(_ c: Case) {
        let closed = Self.nineToThree.decision(at: Self.wall(c, c.opensAt - 1, 0), in: zone(c.zone))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        #expect(closed.clock == "\(two(c.opensAt)):00:00–\(two(c.closesAt)):00:00")
        #expect(closed.description.hasPrefix("closed: outside 09:00:00–15:00:00 (\(two(c.opensAt)):00:00–"))
        // On another day the elapsed seconds are the clock: nothing more is said.
        let usual = Self.nineToThree.decision(at: instant("2024-06-12T08:00:00Z"), in: zone(c.zone))
        #expect(usual.clock == nil)
    }

    @Test(arguments: cases) func theDayIsTwentyThreeOrTwentyFiveHoursLong(_ c: Case) {
        // With no week the whole day is open; the next midnight is 23 or 25 real hours later.
        let midnight = instant("\(c.date)T00:00:00\(c.before)")
        let length: TimeInterval = c.opensAt == 10 ? 23 * 3600 : 25 * 3600
        let hours = OpeningHours(breaks: [.sat: DailyHours(open: 0, close: 1)])
        let decision = hours.decision(at: midnight.addingTimeInterval(length - 1), in: zone(c.zone))
        #expect(decision.hours == DailyHours(open: 0, close: Int(length)))
        #expect(decision.day == LocalDate(c.date))
        #expect(hours.decision(at: midnight.addingTimeInterval(length), in: zone(c.zone)).day != LocalDate(c.date))
    }

    @Test(arguments: cases) func aFixedOffsetZoneIgnoresTheChange(_ c: Case) {
        // The same day read at the zone's standard offset as an ISO-8601 designator: 09:00 is 09:00.
        let fixed = zone(c.before)
        #expect(Self.nineToThree.isOpen(at: instant("\(c.date)T09:00:00\(c.before)"), in: fixed))
        #expect(!Self.nineToThree.isOpen(at: instant("\(c.date)T08:59:59\(c.before)"), in: fixed))
    }
}
