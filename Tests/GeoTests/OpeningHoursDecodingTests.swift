import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct OpeningHoursDecodingTests {
    @Test(arguments: [
        (#"{"open":32400,"close":54000}"#, DailyHours(open: 32400, close: 54000)),
        (#"{"open":"32400","close":" 54000 "}"#, DailyHours(open: 32400, close: 54000)),
        (#"{"open":32400.0,"close":"54000"}"#, DailyHours(open: 32400, close: 54000)),
        (#"{"open":"","close":null}"#, DailyHours(open: 0, close: 0)),
        (#"{}"#, DailyHours(open: 0, close: 0)),
        (#"{"open":0,"close":90000}"#, DailyHours(open: 0, close: 90000)),
    ])
    func timesArriveAsNumbersStringsEmptyOrNull(json: String, expected: DailyHours) throws {
        let hours = try OpeningHours.parse(Data(#"{"week":{"mon":\#(json)}}"#.utf8))
        #expect(hours.week?[.mon] == expected)
        #expect(hours.warnings.isEmpty)
    }

    @Test(arguments: [
        (#"{"week":{"mon":{"open":-5,"close":90001}}}"#, ["week.mon.open", "week.mon.close"]),
        (#"{"week":{"mon":{"open":50000,"close":40000}}}"#, ["week.mon"]),
        (#"{"week":{"lun":{"open":1,"close":2}}}"#, ["week.lun"]),
        (#"{"week":{"thu":{"open":1,"close":2},"thi":{"open":3,"close":4}}}"#, ["week.thi"]),
        (#"{"specific_days":{"2013-02-30":{"open":1,"close":2}}}"#, ["specific_days.2013-02-30"]),
        (#"{"holidays":{}}"#, ["holidays"]),
    ])
    func whatIsAcceptedButChangedIsReported(json: String, paths: [String]) throws {
        let hours = try OpeningHours.parse(Data(json.utf8))
        #expect(hours.warnings.map(\.path) == paths)
    }

    @Test func outOfRangeTimesAreClamped() throws {
        let hours = try OpeningHours.parse(Data(#"{"week":{"mon":{"open":-5,"close":90001}}}"#.utf8))
        #expect(hours.week?[.mon] == DailyHours(open: 0, close: 90000))
    }

    /// Found by fuzzing: a time beyond Int's range trapped while its warning was written.
    @Test func timesBeyondIntAreClampedWithAWarning() throws {
        let hours = try OpeningHours.parse(Data(#"{"week":{"mon":{"open":8e89,"close":"-1e30"}}}"#.utf8))
        #expect(hours.week?[.mon] == DailyHours(open: 90000, close: 0))
        #expect(hours.warnings.map(\.path) == ["week.mon.open", "week.mon.close", "week.mon"])
    }

    @Test func thuWinsOverThi() throws {
        let hours = try OpeningHours.parse(
            Data(#"{"week":{"thu":{"open":1,"close":2},"thi":{"open":3,"close":4}}}"#.utf8))
        #expect(hours.week?[.thu] == DailyHours(open: 1, close: 2))
    }

    @Test(arguments: [
        #"{"week":{"mon":{"open":"nine","close":54000}}}"#,
        #"{"week":{"mon":{"open":1.5,"close":54000}}}"#,
        #"{"week":{"mon":{"open":true,"close":54000}}}"#,
        #"{"week":[]}"#,
        #"{"week":{"mon":32400}}"#,
        #"[]"#,
    ])
    func malformedSchedulesAreDecodingErrors(json: String) {
        #expect(throws: DecodingError.self) { try OpeningHours.parse(Data(json.utf8)) }
    }

    @Test func theSeedExampleRoundTripsThroughItsCanonicalJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let again = try OpeningHours.parse(encoder.encode(seedExample))
        #expect(again == seedExample)
    }

    @Test func anyScheduleRoundTrips() async {
        let time = Gen.int(in: 0...90000)
        let hours = Gen.int(in: 0...90000).array(of: 2).map { DailyHours(open: $0[0], close: $0[1]) }
        let week = hours.array(of: 7).map { list in
            Dictionary(uniqueKeysWithValues: zip(Weekday.allCases, list))
        }
        await propertyCheck(input: week, hours.array(of: 0...3), time) { week, specific, seed in
            var days: [LocalDate: DailyHours] = [:]
            for (index, hours) in specific.enumerated() {
                days[LocalDate(year: 2000 + index, month: 1 + seed % 12, day: 1 + seed % 28)!] = hours
            }
            let schedule = OpeningHours(week: week, breaks: [.fri: week[.mon]!], specificDays: days)
            let decoded = try! OpeningHours.parse(JSONEncoder().encode(schedule))
            #expect(decoded.week == schedule.week)
            #expect(decoded.breaks == schedule.breaks)
            #expect(decoded.specificDays == schedule.specificDays)
        }
    }

    @Test(arguments: ["2013-12-25", "2000-02-29", "0001-01-01"])
    func datesParse(text: String) {
        #expect(LocalDate(text)?.description == text)
    }

    @Test(arguments: ["2013-12-32", "1900-02-29", "2013-1-01", "13-12-25", "2013/12/25", "2013-12-25T00:00", ""])
    func badDatesDoNot(text: String) {
        #expect(LocalDate(text) == nil)
    }
}
