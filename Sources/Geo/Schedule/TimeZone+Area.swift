import Foundation

extension TimeZone {
    /// The time zone of an area's `timezone.zone` (seed 004 line 478): an IANA ("Olson") name
    /// such as `Europe/Paris`, which follows summer time, or an ISO-8601 designator `Z`, `±HH`,
    /// `±HHMM` or `±HH:MM` (e.g. `+02:00`, `-1000`, `+03`), a fixed offset.
    public init(areaZone text: String) throws(ScheduleError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let offset = Self.iso8601Offset(trimmed) {
            guard let zone = TimeZone(secondsFromGMT: offset) else {
                throw ScheduleError("time zone \"\(text)\": offset out of range")
            }
            self = zone
            return
        }
        guard trimmed.contains("/") || trimmed == "UTC" || trimmed == "GMT",
            let zone = TimeZone(identifier: trimmed)
        else {
            throw ScheduleError(
                "time zone \"\(text)\" is neither an IANA name like Europe/Paris nor an ISO-8601 offset like +02:00")
        }
        self = zone
    }

    /// Seconds east of UTC for `Z`, `±HH`, `±HHMM`, `±HH:MM`; nil for anything else.
    static func iso8601Offset(_ text: String) -> Int? {
        if text == "Z" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let body = text.dropFirst()
        let digits: Substring
        switch body.count {
        case 2, 4: digits = body
        case 5 where body[body.index(body.startIndex, offsetBy: 2)] == ":":
            digits = body.prefix(2) + body.suffix(2)
        default: return nil
        }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let hours = Int(digits.prefix(2)) else { return nil }
        let minutes = digits.count == 4 ? Int(digits.suffix(2))! : 0
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
