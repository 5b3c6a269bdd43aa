import Foundation
import Testing

@testable import Muster

/// A rule's day (for the daily quota) is the user's local calendar day, also when it comes from the days remembered
/// per zone: across midnight and daylight-saving changes it is what the calendar says.
@Suite struct LocalDayTests {
    /// The calendar's answer, worked out afresh.
    static func calendarDay(_ at: Int64, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(at) / 1e6))
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test(arguments: ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"])
    func everyInstantAroundMidnightsAndClockChangesHasTheCalendarsDay(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        // 2026-03-28 to 2026-04-06 and 2026-10-24 to 2026-11-02 in steps of 7 minutes 13 seconds: both clock changes
        // of the northern and southern hemispheres, every midnight between, in order and back again.
        for (from, to) in [(1_774_656_000, 1_775_433_600), (1_792_800_000, 1_793_577_600)] {
            let instants = stride(from: Int64(from) * 1_000_000, to: Int64(to) * 1_000_000, by: 433_000_000)
            for at in Array(instants) + instants.reversed() {
                #expect(RuleRun.day(at, in: zone) == Self.calendarDay(at, zone), "\(name) at \(at)")
            }
        }
    }

    @Test func theLastMicrosecondOfADayAndTheFirstOfTheNextDiffer() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let midnight: Int64 = 1_795_129_200 * 1_000_000  // 2026-11-20 00:00 in Paris (23:00 UTC the day before)
        #expect(RuleRun.day(midnight - 1, in: paris) == "2026-11-19")
        #expect(RuleRun.day(midnight, in: paris) == "2026-11-20")
        #expect(RuleRun.day(midnight - 1, in: paris) == "2026-11-19")
        #expect(RuleRun.day(midnight, in: TimeZone(identifier: "UTC")!) == "2026-11-19")
    }
}
