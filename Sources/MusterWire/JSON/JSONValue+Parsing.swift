import Foundation

extension JSONValue {
    /// Reads one JSON text (any value at its top level). A text that is not JSON is refused with
    /// `JSONScanner.Failure`, naming the line and column where it stops being JSON.
    public init(json data: Data) throws {
        try self.init(json: Array(data))
    }

    /// Reads one JSON text (any value at its top level): checked by `JSONScanner`, then built in one pass.
    ///
    /// Foundation's `JSONDecoder` builds a `JSONValue` by trying each kind in turn and throwing on each miss, which
    /// cost ~80 µs for a 400-byte sensor message a device publishes; this takes a few.
    public init(json bytes: [UInt8]) throws(JSONScanner.Failure) {
        _ = try JSONScanner.scan(bytes, allowScalar: true)
        self.init(scanned: bytes, range: bytes.indices)
    }

    /// The value at `range` of a text `JSONScanner` accepted (the whole of it, or the range it gave for a member),
    /// built without checking it again: what a reader that needs a few members of a large object builds.
    public init(scanned bytes: [UInt8], range: Range<Int>) {
        self = bytes.withUnsafeBufferPointer { buffer in
            var builder = JSONBuilder(bytes: buffer, at: range.lowerBound)
            return builder.value()
        }
    }
}

/// Builds a `JSONValue` from a text `JSONScanner` accepted: it checks nothing again. A repeated member name keeps
/// its last value; an escaped lone surrogate becomes U+FFFD.
private struct JSONBuilder {
    let bytes: UnsafeBufferPointer<UInt8>
    var i: Int

    init(bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
        self.bytes = bytes
        i = start
    }

    mutating func value() -> JSONValue {
        skipWhitespace()
        switch bytes[i] {
        case UInt8(ascii: "{"): return .object(object())
        case UInt8(ascii: "["): return .array(array())
        case UInt8(ascii: "\""): return .string(string())
        case UInt8(ascii: "t"):
            i += 4
            return .bool(true)
        case UInt8(ascii: "f"):
            i += 5
            return .bool(false)
        case UInt8(ascii: "n"):
            i += 4
            return .null
        default: return .number(number())
        }
    }

    private mutating func object() -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        i += 1
        while true {
            skipWhitespace()
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return members
            }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipWhitespace()
            }
            let key = string()
            skipWhitespace()
            i += 1  // ':'
            members[key] = value()
        }
    }

    private mutating func array() -> [JSONValue] {
        var elements: [JSONValue] = []
        i += 1
        while true {
            skipWhitespace()
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return elements
            }
            if bytes[i] == UInt8(ascii: ",") { i += 1 }
            elements.append(value())
        }
    }

    private mutating func string() -> String {
        i += 1
        let start = i
        while bytes[i] != UInt8(ascii: "\"") && bytes[i] != UInt8(ascii: "\\") { i += 1 }
        if bytes[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        }
        var text = Array(bytes[start..<i])
        while bytes[i] != UInt8(ascii: "\"") {
            guard bytes[i] == UInt8(ascii: "\\") else {
                text.append(bytes[i])
                i += 1
                continue
            }
            let escaped = bytes[i + 1]
            i += 2
            switch escaped {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"): text.append(contentsOf: Array(String(unicodeEscape()).utf8))
            default: text.append(escaped)
            }
        }
        i += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// The character of a `\uXXXX` escape (its backslash and `u` read), joining a surrogate pair.
    private mutating func unicodeEscape() -> Character {
        let unit = hex4()
        if (0xD800..<0xDC00).contains(unit), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
        {
            let save = i
            i += 2
            let low = hex4()
            if (0xDC00..<0xE000).contains(low) {
                let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                return Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")
            }
            i = save
        }
        return Character(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}")
    }

    private mutating func hex4() -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let b = bytes[i] | 0x20
            unit = unit << 4 + UInt16(b <= UInt8(ascii: "9") ? b - UInt8(ascii: "0") : b - UInt8(ascii: "a") + 10)
            i += 1
        }
        return unit
    }

    /// A number: exact from its digits when it is an integer of at most 15 digits, an integer of up to 64 bits
    /// exactly (`JSONNumber`), else as Swift reads the text (correctly rounded).
    private mutating func number() -> JSONNumber {
        let start = i
        var integer = 0
        var digits = 0
        var integral = true
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        while i < bytes.count {
            let b = bytes[i]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                integer = integer &* 10 &+ Int(b &- UInt8(ascii: "0"))
                digits += 1
            } else if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
                || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
            {
                integral = false
            } else {
                break
            }
            i += 1
        }
        if integral && digits <= 15 { return JSONNumber(Double(negative ? -integer : integer)) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        if integral, let exact = JSONNumber(integerDigits: text) { return exact }
        return JSONNumber(Double(text) ?? .nan)
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }
}
