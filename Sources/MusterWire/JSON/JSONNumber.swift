/// A JSON number.
///
/// Arithmetic, comparisons and form rules use its `Double`. An integer a `Double` would round — beyond ±2^53 — is
/// kept exactly as well when it fits in 64 bits, so it is written back as it came: a payload's `state` is passed
/// through unaltered, as the seed asks, even when it holds a 64-bit id. (Integers wider than 64 bits, and fractions,
/// are as exact as a `Double` is, which is what RFC 8259 asks a reader to expect.)
public struct JSONNumber: Sendable, Hashable {
    /// The value, rounded to the nearest `Double` when it has no exact one.
    public let double: Double
    /// The integer, only when it has no exact `Double` (so two equal numbers are stored alike).
    private let wide: WideInteger?

    private enum WideInteger: Hashable {
        case signed(Int64)
        case unsigned(UInt64)
    }

    /// The number `double`.
    public init(_ double: Double) {
        self.double = double
        wide = nil
    }

    /// The integer `integer`, exactly when it fits in 64 bits.
    public init(_ integer: some BinaryInteger) {
        double = Double(integer)
        if Double(exactly: integer) != nil {
            wide = nil
        } else if let signed = Int64(exactly: integer) {
            wide = .signed(signed)
        } else if let unsigned = UInt64(exactly: integer) {
            wide = .unsigned(unsigned)
        } else {
            wide = nil
        }
    }

    /// The integer written as JSON's digits (an optional `-`, then digits), exactly when it fits in 64 bits; nil when
    /// `digits` is not such an integer.
    public init?(integerDigits digits: some StringProtocol) {
        if let signed = Int64(digits) {
            self.init(signed)
        } else if let unsigned = UInt64(digits) {
            self.init(unsigned)
        } else {
            return nil
        }
    }

    /// The integer, when the number is one that fits in an `Int`.
    public var int: Int? {
        switch wide {
        case .signed(let signed): Int(exactly: signed)
        case .unsigned(let unsigned): Int(exactly: unsigned)
        case nil: Int(exactly: double)
        }
    }

    /// The JSON text of the number: an integer without a fraction, any other as Swift's `description` without a
    /// trailing `.0`; nil when it is not finite (which JSON cannot write).
    public var text: String? {
        switch wide {
        case .signed(let signed): return String(signed)
        case .unsigned(let unsigned): return String(unsigned)
        case nil:
            if let int { return String(int) }
            if let unsigned = UInt64(exactly: double) { return String(unsigned) }
            guard double.isFinite else { return nil }
            var text = double.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            return text
        }
    }
}

extension JSONNumber: Codable {
    /// Decodes a number; an integer beyond ±2^53 is read exactly when the decoder can give it so.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let double = try container.decode(Double.self)
        guard double.rounded() == double, abs(double) >= 9.0e15, abs(double) <= 2.0e19 else {
            self.init(double)
            return
        }
        if let signed = try? container.decode(Int64.self) {
            self.init(signed)
        } else if let unsigned = try? container.decode(UInt64.self) {
            self.init(unsigned)
        } else {
            self.init(double)
        }
    }

    /// Encodes the number as `text` gives it: an integer without a fraction, exactly.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch wide {
        case .signed(let signed): try container.encode(signed)
        case .unsigned(let unsigned): try container.encode(unsigned)
        case nil:
            if let int {
                try container.encode(int)
            } else if let unsigned = UInt64(exactly: double) {
                try container.encode(unsigned)
            } else {
                try container.encode(double)
            }
        }
    }
}
