import Foundation

@testable import Geo

/// The instant of an ISO-8601 date-time with offset, e.g. `2013-12-06T10:00:00+01:00`.
func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("bad fixture instant \(text)") }
    return date
}

func zone(_ name: String) -> TimeZone { try! TimeZone(areaZone: name) }

/// The example schedule of seed 004, lines 74–88, verbatim.
let seedExampleJSON = """
    {"week":{
    "sun":{"close":0,"open":0},
    "mon":{"close":54000,"open":32400},
    "tue":{"close":54000,"open":32400},
    "wed":{"close":0,"open":0},
    "thu":{"close":54000,"open":32400},
    "fri":{"close":61200,"open":36000},
    "sat":{"close":54000,"open":32400}},
    "breaks":{
    "fri":{"close":48600,"open":46800}},
    "specific_days":{
    "2010-12-25":{"close":0,"open":0},
    "2013-12-25":{"close":0,"open":0},
    "2013-10-27":{"close":54000,"open":32400},
    "2013-12-27":{"close":54000,"open":36000}}}
    """

let seedExample = try! OpeningHours.parse(Data(seedExampleJSON.utf8))

/// The schedule of the seed's `u_beacons.json` example (lines 970–985), with its `"thi"` keys
/// and `"specific_days": null`.
let seedBeaconScheduleJSON = """
    {"week":{"sun":{"open":0,
    "close":0},
    "mon":{"open":32400,"close":68400},
    "tue":{"open":32400,"close":68400},
    "wed":{"open":32400,"close":68400},
    "thi":{"open":32400,"close":68400},
    "fri":{"open":32400,"close":57600},
    "sat":{"open":0,"close":0}},
    "breaks":{"sun":{"open":0,"close":0},
    "mon":{"open":46800,"close":54000},
    "tue":{"open":46800,"close":54000},
    "wed":{"open":46800,"close":54000},
    "thi":{"open":46800,"close":54000},
    "fri":{"open":0,"close":0},
    "sat":{"open":0,"close":0}},
    "specific_days":null}
    """

/// The same hours every day, optionally with one break every day.
func everyDay(_ open: Int, _ close: Int, break pause: DailyHours? = nil) -> OpeningHours {
    var week: [Weekday: DailyHours] = [:]
    var breaks: [Weekday: DailyHours] = [:]
    for day in Weekday.allCases {
        week[day] = DailyHours(open: open, close: close)
        if let pause { breaks[day] = pause }
    }
    return OpeningHours(week: week, breaks: breaks)
}
