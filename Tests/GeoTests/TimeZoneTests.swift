import Foundation
import Testing

@testable import Geo

@Suite struct TimeZoneTests {
    @Test(arguments: [
        ("Z", 0), ("+02:00", 7200), ("-1000", -36000), ("+03", 10800), ("+05:30", 19800), ("-03:30", -12600),
        ("+0545", 20700), ("UTC", 0),
    ])
    func iso8601DesignatorsAreFixedOffsets(text: String, seconds: Int) throws {
        let zone = try TimeZone(areaZone: text)
        #expect(zone.secondsFromGMT(for: instant("2024-01-15T12:00:00Z")) == seconds)
        #expect(zone.secondsFromGMT(for: instant("2024-07-15T12:00:00Z")) == seconds)
    }

    @Test(arguments: [
        ("Europe/Paris", 3600, 7200), ("America/New_York", -18000, -14400), ("Australia/Sydney", 39600, 36000),
    ])
    func ianaNamesFollowSummerTime(name: String, january: Int, july: Int) throws {
        let zone = try TimeZone(areaZone: name)
        #expect(zone.secondsFromGMT(for: instant("2024-01-15T12:00:00Z")) == january)
        #expect(zone.secondsFromGMT(for: instant("2024-07-15T12:00:00Z")) == july)
    }

    @Test(arguments: ["", "Paris", "Europe/Atlantis", "+2", "+02:0", "+25:00", "02:00", "+02:60", "+0a:00"])
    func anythingElseIsRefusedNamingTheText(text: String) {
        #expect {
            try TimeZone(areaZone: text)
        } throws: { error in
            (error as? ScheduleError)?.message.contains("\"\(text)\"") == true
        }
    }
}
