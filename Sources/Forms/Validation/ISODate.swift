/// The ISO 8601 forms a `date` (`1991-04-20`) and a `datetime` (`1991-04-20T09:30-07:00`) field carry.
public enum ISODate {
    /// Whether `text` is a calendar date `YYYY-MM-DD`.
    public static func isDate(_ text: String) -> Bool {
        var scanner = Scanner(text)
        return scanner.date() && scanner.isAtEnd
    }

    /// Whether `text` is `YYYY-MM-DDTHH:MM`, optional `:SS` and fraction, optional `Z` or `±HH:MM` zone.
    public static func isDateTime(_ text: String) -> Bool {
        var scanner = Scanner(text)
        guard scanner.date(), scanner.skip("T"), let hour = scanner.digits(2), hour < 24, scanner.skip(":"),
            let minute = scanner.digits(2), minute < 60
        else { return false }
        if scanner.skip(":") {
            guard let second = scanner.digits(2), second < 61 else { return false }
            if scanner.skip(".") {
                var count = 0
                while scanner.digits(1) != nil { count += 1 }
                guard count > 0 else { return false }
            }
        }
        if scanner.skip("Z") { return scanner.isAtEnd }
        if scanner.skip("+") || scanner.skip("-") {
            guard let zoneHour = scanner.digits(2), zoneHour < 24, scanner.skip(":"),
                let zoneMinute = scanner.digits(2), zoneMinute < 60
            else { return false }
        }
        return scanner.isAtEnd
    }

    private struct Scanner {
        private let bytes: [UInt8]
        private var position = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard position < bytes.count, bytes[position] == character.asciiValue else { return false }
            position += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            position += count
            return value
        }

        mutating func date() -> Bool {
            guard let year = digits(4), skip("-"), let month = digits(2), (1...12).contains(month), skip("-"),
                let day = digits(2)
            else { return false }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            return (1...lengths[month - 1]).contains(day)
        }
    }
}
