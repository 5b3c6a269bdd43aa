import Foundation
import Testing

@testable import Geo

/// The seed's example schedule against its table (004 lines 89–102), in Europe/Paris.
///
/// The table's clock times are uniformly 14 minutes early (seeds README): 32400 s is 09:00, the
/// table says 08:46. The rows keep the table's literal times; the test adds the 14 minutes.
@Suite struct SeedScheduleTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let label: String
        /// A date that falls on the row's day, and its UTC offset in Paris.
        let date: String
        let offset: String
        /// The table's literal open intervals (wall clock, 14 minutes early); empty = closed.
        let table: [(String, String)]
        var testDescription: String { "\(label) (\(date))" }
    }

    static let rows: [Row] = [
        .init(label: "Sunday", date: "2013-12-08", offset: "+01:00", table: []),
        .init(label: "Monday", date: "2013-12-02", offset: "+01:00", table: [("08:46", "14:46")]),
        .init(label: "Tuesday", date: "2013-12-03", offset: "+01:00", table: [("08:46", "14:46")]),
        .init(label: "Wednesday", date: "2013-12-04", offset: "+01:00", table: []),
        .init(label: "Thursday", date: "2013-12-05", offset: "+01:00", table: [("08:46", "14:46")]),
        .init(label: "Friday", date: "2013-12-06", offset: "+01:00", table: [("09:46", "12:46"), ("13:16", "16:46")]),
        .init(label: "Saturday", date: "2013-12-07", offset: "+01:00", table: [("08:46", "14:46")]),
        .init(label: "2010-12-25", date: "2010-12-25", offset: "+01:00", table: []),
        // DST ends at 03:00 that morning: after it the offset is +01:00, and 32400 s after
        // midnight is 08:00 on the wall clock (the table's 07:46 + 14 min).
        .init(label: "2013-10-27", date: "2013-10-27", offset: "+01:00", table: [("07:46", "13:46")]),
        .init(label: "2013-12-25", date: "2013-12-25", offset: "+01:00", table: []),
        .init(
            label: "Friday 2013-12-27", date: "2013-12-27", offset: "+01:00",
            table: [("09:46", "12:46"), ("13:16", "14:46")]),
    ]

    /// `HH:MM` plus 14 minutes, as seconds of the wall clock.
    static func corrected(_ clock: String) -> Int {
        let parts = clock.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60 + 14 * 60
    }

    static func at(_ row: Row, _ wallSeconds: Int) -> Date {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let clock = "\(two(wallSeconds / 3600)):\(two(wallSeconds % 3600 / 60)):\(two(wallSeconds % 60))"
        return instant("\(row.date)T\(clock)\(row.offset)")
    }

    @Test(arguments: rows) func theTableHoldsOnceCorrectedBy14Minutes(_ row: Row) {
        let paris = zone("Europe/Paris")
        let intervals = row.table.map { (Self.corrected($0.0), Self.corrected($0.1)) }
        // Sample the day every 5 minutes from 05:00 to 23:55 (clear of the DST hour).
        for wall in stride(from: 5 * 3600, to: 24 * 3600, by: 300) {
            let expected = intervals.contains { wall >= $0.0 && wall < $0.1 }
            #expect(
                seedExample.isOpen(at: Self.at(row, wall), in: paris) == expected,
                "\(row.label) at \(DailyHours.clock(wall))")
        }
        for (open, close) in intervals {
            #expect(seedExample.isOpen(at: Self.at(row, open), in: paris))
            #expect(!seedExample.isOpen(at: Self.at(row, open - 1), in: paris))
            #expect(seedExample.isOpen(at: Self.at(row, close - 1), in: paris))
            #expect(!seedExample.isOpen(at: Self.at(row, close), in: paris))
        }
    }

    @Test func theTablesLiteralTimesAreTheSlip() {
        let paris = zone("Europe/Paris")
        #expect(!seedExample.isOpen(at: instant("2013-12-02T08:46:00+01:00"), in: paris))
        #expect(seedExample.isOpen(at: instant("2013-12-02T14:46:00+01:00"), in: paris))
    }

    @Test(arguments: [
        ("2013-12-08T12:00:00+01:00", OpeningDecision.Reason.weekdayClosed),
        ("2013-12-02T12:00:00+01:00", .regularHours),
        ("2013-12-02T16:00:00+01:00", .outsideHours),
        ("2013-12-06T13:10:00+01:00", .onBreak),
        ("2013-12-27T13:10:00+01:00", .onBreak),
        ("2013-12-27T16:00:00+01:00", .outsideHours),
        ("2013-12-27T11:00:00+01:00", .specificDayHours),
        ("2010-12-25T12:00:00+01:00", .specificDayClosed),
        ("2013-10-27T12:00:00+01:00", .specificDayHours),
    ])
    func eachDecisionSaysWhy(at text: String, reason: OpeningDecision.Reason) {
        let decision = seedExample.decision(at: instant(text), in: zone("Europe/Paris"))
        #expect(decision.reason == reason)
        #expect(decision.isOpen == [.regularHours, .specificDayHours, .alwaysOpen].contains(reason))
    }

    @Test func theBreakDecisionReadsAsOneLine() {
        let decision = seedExample.decision(at: instant("2013-12-06T13:10:00+01:00"), in: zone("Europe/Paris"))
        #expect(decision.description == "closed: break 13:00:00–13:30:00 on fri 2013-12-06")
        #expect(decision.day == LocalDate("2013-12-06"))
    }

    @Test func theExampleDecodesWithoutWarnings() {
        #expect(seedExample.warnings.isEmpty)
        #expect(seedExample.week?.count == 7)
        #expect(seedExample.breaks == [.fri: DailyHours(open: 46800, close: 48600)])
        #expect(seedExample.specificDays.count == 4)
        #expect(seedExample.specificDays[LocalDate("2013-12-27")!] == DailyHours(open: 36000, close: 54000))
    }

    @Test func theBeaconExamplesThiIsThursdayWithAWarning() throws {
        let hours = try OpeningHours.parse(Data(seedBeaconScheduleJSON.utf8))
        #expect(hours.week?[.thu] == DailyHours(open: 32400, close: 68400))
        #expect(hours.breaks[.thu] == DailyHours(open: 46800, close: 54000))
        #expect(
            hours.warnings == [
                ScheduleWarning(path: "week.thi", message: "\"thi\" read as Thursday (\"thu\")"),
                ScheduleWarning(path: "breaks.thi", message: "\"thi\" read as Thursday (\"thu\")"),
            ])
        // Thursday 2013-10-31, Paris: open 09:00–13:00 and 14:00–19:00.
        let paris = zone("Europe/Paris")
        #expect(hours.isOpen(at: instant("2013-10-31T10:00:00+01:00"), in: paris))
        #expect(!hours.isOpen(at: instant("2013-10-31T13:30:00+01:00"), in: paris))
        #expect(hours.isOpen(at: instant("2013-10-31T18:59:59+01:00"), in: paris))
        #expect(!hours.isOpen(at: instant("2013-11-02T12:00:00+01:00"), in: paris))
    }
}
