/// One `{"open": …, "close": …}` structure: seconds elapsed since the area's local midnight.
///
/// The seed counts real elapsed seconds (004 line 71: "the DST shift days may be 23 or 25
/// hours"; line 354: the schedule times are added to the time of midnight), so on a 23-hour day
/// `open: 32400` is 10:00 on the wall clock and on a 25-hour day 08:00. `close` may reach
/// 90000 (line 511), which runs past midnight into the next day. The interval is half-open:
/// open at `open`, closed again at `close`; `open == close` (the seed's `0`/`0`) is no time at all.
public struct DailyHours: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The greatest `open` or `close` the seed allows (004 lines 511 and 513).
    public static let maximumSeconds = 90_000

    /// Seconds after local midnight at which the interval starts.
    public var open: Int
    /// Seconds after local midnight at which the interval ends (exclusive).
    public var close: Int

    /// Creates an interval; values are used as given (the decoder reports out-of-range ones).
    public init(open: Int, close: Int) {
        self.open = open
        self.close = close
    }

    /// Whether the interval holds no time (`open >= close`, e.g. the seed's closed day `0`/`0`).
    public var isEmpty: Bool { open >= close }

    /// Whether `elapsed` seconds after midnight fall within `open ..< close`.
    public func contains(_ elapsed: Double) -> Bool {
        !isEmpty && elapsed >= Double(open) && elapsed < Double(close)
    }

    /// `open–close` as elapsed `HH:MM:SS`.
    public var description: String { "\(Self.clock(open))–\(Self.clock(close))" }

    static func clock(_ seconds: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60))"
    }
}
