import Foundation

extension RuleCounters {
    /// Whether `text` names a day of the calendar as `YYYY-MM-DD` — the key of a daily quota.
    /// `2026-02-30` has the right shape but is no day, so it is refused as well.
    public static func isDay(_ text: String) -> Bool {
        guard let match = text.wholeMatch(of: /([0-9]{4})-([0-9]{2})-([0-9]{2})/),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3)
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return DateComponents(year: year, month: month, day: day).isValidDate(in: calendar)
    }
}
