import Foundation

/// The JSON conventions of the wire format: ISO 8601 dates in UTC, read with or without fractional seconds.
public enum MusterJSON {
    /// A decoder for the wire: dates as `2026-11-21T17:00:00.123Z`, with or without the fraction.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "expected an ISO 8601 date such as 2026-11-21T17:00:00Z, got \(text)")
            }
            return date
        }
        return decoder
    }

    /// An encoder for the wire: dates as `2026-11-21T17:00:00.123Z`, slashes unescaped, keys sorted.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Reads an ISO 8601 date-time with a zone, with or without fractional seconds; nil when it is not one.
    public static func parseDate(_ text: String) -> Date? {
        // Apple's plain style rejects a fraction that Linux's accepts, so try the fractional style first.
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Writes a date as the wire format does: UTC with milliseconds, e.g. `2026-11-21T17:00:00.123Z`.
    ///
    /// The milliseconds are cut, not rounded, as the server cuts its microsecond times: a `Double` date is off
    /// by far less than half a millisecond (2.4e-7 s in this century), so the half added only undoes that.
    public static func formatDate(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000 + 0.0005).rounded(.down))
        var (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 { (seconds, fraction) = (seconds - 1, fraction + 1000) }
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return "\(whole.dropLast()).\(String(fraction + 1000).dropFirst())Z"
    }
}
