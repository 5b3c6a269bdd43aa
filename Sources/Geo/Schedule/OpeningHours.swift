import Foundation

/// An area's open schedule as seed 004 defines it (lines 64–72, 352–355, 491–517): hours per
/// weekday, one break per weekday, and dates whose hours replace the weekday's.
///
/// Read of the seed:
/// - `week` gives each weekday's `open`/`close`; a weekday missing from a present `week`, or
///   with `0`/`0`, has no open time (line 65).
/// - `breaks` gives per weekday the period the area is not available (line 66); the example's
///   `{"close": 48600, "open": 46800}` with the table's 13:00–13:30 gap shows `open` is when the
///   break starts and `close` when it ends. A break applies to regular and specific days alike
///   (lines 69 and 353: "applying in both cases").
/// - `specific_days` replaces the weekday's hours on that local date (lines 67–70; the Ruby of
///   line 328: `@specific_days[date] || @week[...]`).
/// - Absent or empty altogether means open all the time (line 72). With `week` absent or empty
///   but breaks or specific days given, every weekday is open all day, minus those.
/// - Times are real seconds since the local midnight of the day they belong to (lines 71, 354),
///   so hours that close after the day's end (up to 90000) keep the area open into the next
///   day; each day's break carves only that day's hours.
public struct OpeningHours: Sendable, Hashable {
    /// Hours per weekday; nil when the schedule has no `week` (every day open all day).
    public var week: [Weekday: DailyHours]?
    /// The break per weekday, if any.
    public var breaks: [Weekday: DailyHours]
    /// Hours that replace the weekday's on these local dates.
    public var specificDays: [LocalDate: DailyHours]
    /// What the decoder accepted but changed or ignored (e.g. `"thi"` read as Thursday).
    public var warnings: [ScheduleWarning]

    /// Creates a schedule; all parts empty means open all the time.
    public init(
        week: [Weekday: DailyHours]? = nil, breaks: [Weekday: DailyHours] = [:],
        specificDays: [LocalDate: DailyHours] = [:], warnings: [ScheduleWarning] = []
    ) {
        self.week = week.flatMap { $0.isEmpty ? nil : $0 }
        self.breaks = breaks
        self.specificDays = specificDays
        self.warnings = warnings
    }

    /// A schedule that is always open (the seed's absent or empty structure).
    public static let alwaysOpen = OpeningHours()

    /// Whether nothing restricts the hours at all.
    public var isAlwaysOpen: Bool { week == nil && breaks.isEmpty && specificDays.isEmpty }

    /// Decodes the seed's JSON schedule (see `init(from:)` for the tolerance rules).
    public static func parse(_ json: Data) throws -> OpeningHours {
        try JSONDecoder().decode(OpeningHours.self, from: json)
    }
}
