/// A day of the week, keyed as in the seed's schedules (`"mon"` … `"sun"`).
public enum Weekday: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case mon, tue, wed, thu, fri, sat, sun

    /// The weekday of Foundation's Gregorian calendar numbering (1 = Sunday … 7 = Saturday).
    public init(calendarWeekday: Int) {
        let ordered: [Weekday] = [.sun, .mon, .tue, .wed, .thu, .fri, .sat]
        self = ordered[(calendarWeekday - 1 + 7) % 7]
    }

    /// Monday first, as in the seed.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
