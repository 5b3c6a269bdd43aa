import Foundation
import Testing

@testable import Geo

@Suite struct OpeningHoursTests {
    /// Every weekday, in a week of 2024 (Monday 2024-06-03), with hours unique to the day.
    static let distinctWeek: OpeningHours = {
        var week: [Weekday: DailyHours] = [:]
        for (index, day) in Weekday.allCases.enumerated() {
            week[day] = DailyHours(open: 3600 * (index + 1), close: 3600 * (index + 12))
        }
        return OpeningHours(week: week)
    }()

    @Test(arguments: Array(Weekday.allCases.enumerated()))
    func eachWeekdayUsesItsOwnHours(index: Int, day: Weekday) {
        let date = "2024-06-0\(3 + index)"
        let tokyo = zone("Asia/Tokyo")
        let opens = index + 1
        let closes = index + 12
        func wall(_ hour: Int, _ minute: Int = 0) -> Date {
            instant("\(date)T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):00+09:00")
        }
        #expect(!Self.distinctWeek.isOpen(at: wall(opens - 1, 59), in: tokyo))
        #expect(Self.distinctWeek.isOpen(at: wall(opens), in: tokyo))
        #expect(Self.distinctWeek.isOpen(at: wall(closes - 1, 59), in: tokyo))
        #expect(!Self.distinctWeek.isOpen(at: wall(closes), in: tokyo))
        #expect(Self.distinctWeek.decision(at: wall(opens), in: tokyo).weekday == day)
    }

    @Test(arguments: ["{}", #"{"week":{},"breaks":{},"specific_days":{}}"#, #"{"week":null,"specific_days":null}"#])
    func anAbsentOrEmptyScheduleIsAlwaysOpen(json: String) throws {
        let hours = try OpeningHours.parse(Data(json.utf8))
        #expect(hours.isAlwaysOpen)
        for text in ["2013-12-08T03:00:00+01:00", "2024-03-31T02:30:00Z", "2024-12-31T23:59:59-05:00"] {
            #expect(hours.decision(at: instant(text), in: zone("Europe/Paris")).reason == .alwaysOpen)
        }
    }

    @Test func aMissingWeekdayInAPresentWeekIsClosed() throws {
        let hours = try OpeningHours.parse(Data(#"{"week":{"mon":{"open":0,"close":86400}}}"#.utf8))
        let utc = zone("Z")
        #expect(hours.isOpen(at: instant("2024-06-03T12:00:00Z"), in: utc))
        #expect(hours.decision(at: instant("2024-06-04T12:00:00Z"), in: utc).reason == .weekdayClosed)
    }

    @Test func breaksAloneCarveAnOtherwiseOpenWeek() throws {
        let hours = try OpeningHours.parse(Data(#"{"breaks":{"mon":{"open":43200,"close":46800}}}"#.utf8))
        let utc = zone("Z")
        #expect(hours.isOpen(at: instant("2024-06-03T03:00:00Z"), in: utc))
        #expect(hours.decision(at: instant("2024-06-03T12:30:00Z"), in: utc).reason == .onBreak)
        #expect(hours.isOpen(at: instant("2024-06-04T12:30:00Z"), in: utc))
    }

    @Test func aSpecificDayOpensAWeekdayThatIsClosed() throws {
        var hours = seedExample
        hours.specificDays[LocalDate("2013-12-04")!] = DailyHours(open: 36000, close: 39600)
        let paris = zone("Europe/Paris")
        #expect(hours.isOpen(at: instant("2013-12-04T10:30:00+01:00"), in: paris))
        #expect(!hours.isOpen(at: instant("2013-12-04T11:00:00+01:00"), in: paris))
        #expect(!hours.isOpen(at: instant("2013-12-11T10:30:00+01:00"), in: paris))
    }

    // MARK: Close past midnight

    static let lateFriday = OpeningHours(
        week: [.fri: DailyHours(open: 72000, close: 90000)], breaks: [.fri: DailyHours(open: 86400, close: 87300)])

    @Test(arguments: [
        ("2024-06-07T19:59:59+02:00", false, OpeningDecision.Reason.outsideHours),
        ("2024-06-07T20:00:00+02:00", true, .regularHours),
        ("2024-06-07T23:59:59+02:00", true, .regularHours),
        ("2024-06-08T00:05:00+02:00", false, .onBreak),
        ("2024-06-08T00:15:00+02:00", true, .regularHours),
        ("2024-06-08T00:59:59+02:00", true, .regularHours),
        ("2024-06-08T01:00:00+02:00", false, .weekdayClosed),
        ("2024-06-06T00:30:00+02:00", false, .weekdayClosed),
    ])
    func hoursClosingAfterMidnightRunIntoTheNextDay(at text: String, open: Bool, reason: OpeningDecision.Reason) {
        let decision = Self.lateFriday.decision(at: instant(text), in: zone("Europe/Paris"))
        #expect(decision.isOpen == open)
        #expect(decision.reason == reason)
    }

    @Test func theSpillBelongsToTheDayItStartedOn() {
        let decision = Self.lateFriday.decision(at: instant("2024-06-08T00:30:00+02:00"), in: zone("Europe/Paris"))
        #expect(decision.day == LocalDate("2024-06-07"))
        #expect(decision.weekday == .fri)
    }

    @Test func sundayNightRunsIntoMonday() {
        let hours = OpeningHours(week: [.sun: DailyHours(open: 79200, close: 90000)])
        let utc = zone("+00:00")
        #expect(hours.isOpen(at: instant("2024-06-10T00:59:00Z"), in: utc))
        #expect(!hours.isOpen(at: instant("2024-06-10T01:00:00Z"), in: utc))
    }
}
