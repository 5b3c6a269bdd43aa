import Foundation

extension ArcadeValue {
    /// Arcade's `Number()` conversion: null 0, booleans 0/1, text parsed (empty 0, otherwise NaN when it
    /// is not a number), dates as milliseconds since 1970, arrays and dictionaries NaN.
    public var numberValue: Double {
        switch self {
        case .null: 0
        case .boolean(let flag): flag ? 1 : 0
        case .number(let number): number
        case .text(let text):
            text.trimmingCharacters(in: .whitespaces).isEmpty
                ? 0 : Double(text.trimmingCharacters(in: .whitespaces)) ?? .nan
        case .date(let date): (date.timeIntervalSince1970 * 1000).rounded()
        case .dictionary, .array: .nan
        }
    }

    /// Arcade's `Text()` conversion without a format: null is empty, whole numbers have no decimals,
    /// dates are ISO 8601 in UTC, arrays and dictionaries are JSON.
    public var textValue: String {
        var out = ""
        _ = appendText(to: &out, quoted: false, limit: .max)
        return out
    }

    /// The text conversion quoted, or the type when that is long: for error messages.
    var preview: String { text(limit: 40)?.debugDescription ?? "a long \(typeName)" }

    /// The text conversion, or nil as soon as it grows past `limit` UTF-8 bytes: a small array
    /// holding the same long text many times never becomes a huge string.
    func text(limit: Int) -> String? {
        var out = ""
        return appendText(to: &out, quoted: false, limit: limit) ? out : nil
    }

    /// The text of a number as Arcade (JavaScript's `Number.prototype.toString`) writes it: the shortest digits that
    /// read back as the number, in plain notation from 1e-6 up to 1e21 (`1000000000000000`, `0.000001`) and as
    /// `1e+21`, `1.5e-7` beyond; whole numbers without `.0`.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        if number == 0 { return "0" }
        // Swift's description has the shortest round-tripping digits ("4.5e+15", "1e-06", "0.0001", "12.0").
        let text = "\(abs(number))"
        let parts = text.split(separator: "e")
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array(mantissa[0] + (mantissa.count > 1 ? mantissa[1] : ""))
        // The number is 0.DIGITS × 10^point.
        var point = mantissa[0].count + (parts.count > 1 ? Int(parts[1])! : 0)
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let count = digits.count
        let written: String
        if count <= point, point <= 21 {
            written = String(digits) + String(repeating: "0", count: point - count)
        } else if 0 < point, point <= 21 {
            written = String(digits[..<point]) + "." + String(digits[point...])
        } else if -6 < point, point <= 0 {
            written = "0." + String(repeating: "0", count: -point) + String(digits)
        } else {
            let exponent = point - 1
            written =
                String(digits[0]) + (count > 1 ? "." + String(digits[1...]) : "") + "e" + (exponent < 0 ? "-" : "+")
                + String(abs(exponent))
        }
        return (number < 0 ? "-" : "") + written
    }

    static func text(of date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Appends the text of the value; false once `out` is longer than `limit` bytes.
    private func appendText(to out: inout String, quoted: Bool, limit: Int) -> Bool {
        switch self {
        case .null: out += quoted ? "null" : ""
        case .boolean(let flag): out += flag ? "true" : "false"
        case .number(let number): out += Self.text(of: number)
        case .text(let text): out += quoted ? Self.quoted(text) : text
        case .date(let date): out += quoted ? Self.quoted(Self.text(of: date)) : Self.text(of: date)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                guard element.appendText(to: &out, quoted: true, limit: limit) else { return false }
            }
            out += "]"
        case .dictionary(let dictionary):
            out += "{"
            for (index, entry) in dictionary.entries.enumerated() {
                if index > 0 { out += "," }
                out += Self.quoted(entry.key) + ":"
                guard entry.value.appendText(to: &out, quoted: true, limit: limit) else { return false }
            }
            out += "}"
        }
        return out.utf8.count <= limit
    }

    /// `text` as a double-quoted literal of the language (and of JSON), with escapes.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// How many values this one holds, itself included, counting no further than `limit + 1`.
    func weight(limit: Int) -> Int {
        var total = 1
        switch self {
        case .array(let elements):
            for element in elements where total <= limit { total += element.weight(limit: limit - total) }
        case .dictionary(let dictionary):
            for entry in dictionary.entries where total <= limit {
                total += entry.value.weight(limit: limit - total)
            }
        default: break
        }
        return total
    }
}
