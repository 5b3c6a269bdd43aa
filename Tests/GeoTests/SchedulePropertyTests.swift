import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct SchedulePropertyTests {
    /// Instants across 2013–2030.
    static let anyInstant = Gen.double(in: 1_356_998_400...1_893_456_000).map { Date(timeIntervalSince1970: $0) }
    static let hours = Gen.int(in: 0...86_400).array(of: 2).map { DailyHours(open: $0.min()!, close: $0.max()!) }

    @Test func withoutDaylightSavingOpenMeansTheWallClockIsWithinTheHours() async {
        // An independent oracle: in a zone without DST, elapsed seconds are the wall clock's.
        await propertyCheck(input: Self.anyInstant, Self.hours, oneOf(["Asia/Tokyo", "+05:30", "-10:00", "Z"])) {
            date, daily, name in
            let area = zone(name)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = area
            let parts = calendar.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
            let wall = Double(parts.hour! * 3600 + parts.minute! * 60 + parts.second!) + Double(parts.nanosecond!) / 1e9
            let schedule = everyDay(daily.open, daily.close)
            #expect(schedule.isOpen(at: date, in: area) == daily.contains(wall))
        }
    }

    @Test func aBreakOnlyEverCloses() async {
        await propertyCheck(
            input: Self.anyInstant, Self.hours, Self.hours,
            oneOf(["Europe/Paris", "America/New_York", "Australia/Sydney"])
        ) { date, daily, pause, name in
            let area = zone(name)
            let without = everyDay(daily.open, daily.close)
            let with = everyDay(daily.open, daily.close, break: pause)
            let decision = with.decision(at: date, in: area)
            if decision.isOpen { #expect(without.isOpen(at: date, in: area)) }
            if without.isOpen(at: date, in: area) && !decision.isOpen { #expect(decision.reason == .onBreak) }
        }
    }

    @Test func aSpecificDayChangesOnlyItsOwnDate() async {
        await propertyCheck(input: Self.anyInstant, Self.hours, oneOf([-3, -2, 1, 2, 3])) { date, daily, shift in
            let paris = zone("Europe/Paris")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = paris
            let other = calendar.date(byAdding: .day, value: shift, to: date)!
            let parts = calendar.dateComponents([.year, .month, .day], from: other)
            var special = seedExample
            special.specificDays[LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!] = daily
            #expect(special.decision(at: date, in: paris) == seedExample.decision(at: date, in: paris))
        }
    }

    @Test func anEmptyScheduleIsOpenAnywhereAnyTime() async {
        await propertyCheck(input: Self.anyInstant, oneOf(["Europe/Paris", "Pacific/Chatham", "+14:00", "-12:00"])) {
            date, name in
            #expect(OpeningHours.alwaysOpen.isOpen(at: date, in: zone(name)))
        }
    }
}
