import Foundation

/// The subset of Arcade's number format patterns: `0` a digit always shown, `#` a digit shown when
/// significant, `,` in the integer part groups thousands, `.` starts the decimals. `"#.00"` shows
/// 3.14159 as `3.14`, `"#,##0"` shows 1234567.8 as `1,234,568`; the integer part always has at
/// least one digit, so `"#.00"` shows 0.5 as `0.50`.
struct NumberFormat: Sendable, Hashable {
    let minimumIntegerDigits: Int
    let minimumDecimals: Int
    let maximumDecimals: Int
    let grouping: Bool

    /// Parses `pattern`; nil when it holds anything but `# 0 , .` or more than one `.`.
    init?(_ pattern: String) {
        guard !pattern.isEmpty, pattern.allSatisfy({ "#0,.".contains($0) }) else { return nil }
        let halves = pattern.split(separator: ".", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        let integer = halves[0]
        let decimals = halves.count == 2 ? halves[1] : ""
        guard !decimals.contains(",") else { return nil }
        minimumIntegerDigits = max(1, integer.filter { $0 == "0" }.count)
        grouping = integer.contains(",")
        minimumDecimals = decimals.prefix { $0 == "0" }.count
        maximumDecimals = decimals.count
    }

    /// `number` rounded half away from zero to `places` decimals (negative places round to tens…).
    static func round(_ number: Double, places: Int) -> Double {
        guard number.isFinite else { return number }
        let scale = pow(10, Double(places))
        let rounded = (number * scale).rounded(.toNearestOrAwayFromZero) / scale
        return rounded.isFinite ? rounded : number
    }

    func format(_ number: Double) -> String {
        guard number.isFinite else { return ArcadeValue.text(of: number) }
        let rounded = Self.round(number, places: maximumDecimals)
        var digits = String(format: "%.\(maximumDecimals)f", abs(rounded))
        if maximumDecimals > minimumDecimals {
            while digits.hasSuffix("0"), digits.split(separator: ".").last!.count > minimumDecimals {
                digits.removeLast()
            }
        }
        if digits.hasSuffix(".") { digits.removeLast() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        var integer = String(parts[0])
        if integer.count < minimumIntegerDigits {
            integer = String(repeating: "0", count: minimumIntegerDigits - integer.count) + integer
        }
        if grouping {
            var grouped = ""
            for (offset, digit) in integer.enumerated() {
                if offset > 0, (integer.count - offset) % 3 == 0 { grouped.append(",") }
                grouped.append(digit)
            }
            integer = grouped
        }
        let sign = rounded < 0 && digits.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
        return sign + integer + (parts.count > 1 ? "." + parts[1] : "")
    }
}
