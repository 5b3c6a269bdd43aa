import Foundation

/// How the domain writes its times (microseconds since 1970) as text.
public enum Timestamp {
    /// `2026-11-21T17:00:00.123Z`: UTC with milliseconds, cut from the integer microseconds — not
    /// from a `Double` date, whose binary fraction would sometimes print one millisecond less.
    public static func iso8601(microseconds: Int64) -> String {
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let (wholeSeconds, micros) = remainder < 0 ? (seconds - 1, remainder + 1_000_000) : (seconds, remainder)
        let date = Date(timeIntervalSince1970: Double(wholeSeconds))
        let text = date.formatted(Date.ISO8601FormatStyle())  // 2026-11-21T17:00:00Z
        let millis = String(micros / 1000)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }
}
