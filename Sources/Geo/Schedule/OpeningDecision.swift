/// Whether an area is open at an instant, and why — the record an audit needs.
public struct OpeningDecision: Sendable, Hashable, CustomStringConvertible {
    /// Why the area is open or closed.
    public enum Reason: Sendable, Hashable {
        /// The schedule is absent or empty.
        case alwaysOpen
        /// Within the weekday's hours of `day` (which may be yesterday, for hours past midnight).
        case regularHours
        /// Within the specific day's hours of `day`.
        case specificDayHours
        /// The weekday has no open time (missing or `0`/`0`).
        case weekdayClosed
        /// `day` is a specific day without open time.
        case specificDayClosed
        /// Within the weekday's break.
        case onBreak
        /// The day has hours, but not at this time.
        case outsideHours
    }

    /// Whether the area is open.
    public let isOpen: Bool
    /// Why.
    public let reason: Reason
    /// The local date whose hours decided (for `regularHours`, possibly the day before).
    public let day: LocalDate
    /// The weekday of `day`.
    public let weekday: Weekday
    /// The hours or break that decided, if any.
    public let hours: DailyHours?
    /// `hours` on the wall clock, when that day's summer-time shift makes them differ from the elapsed seconds
    /// (`open: 32400` is 08:00 on the day clocks go back); nil otherwise.
    public var clock: String? = nil

    /// One line, e.g. `closed: break 13:00:00–13:30:00 on fri 2013-12-06`.
    public var description: String {
        let on = "\(weekday.rawValue) \(day)"
        let given = (hours.map(\.description) ?? "") + (clock.map { " (\($0) on the clock)" } ?? "")
        switch reason {
        case .alwaysOpen: return "open: no schedule"
        case .regularHours: return "open: \(given) on \(on)"
        case .specificDayHours: return "open: specific day \(given) on \(on)"
        case .weekdayClosed: return "closed: no open time on \(on)"
        case .specificDayClosed: return "closed: specific day \(on) has no open time"
        case .onBreak: return "closed: break \(given) on \(on)"
        case .outsideHours: return "closed: outside \(given) on \(on)"
        }
    }
}
