import Foundation

/// A strict RFC 8259 scanner over UTF-8 bytes: validates a JSON text and reports where it stops
/// being JSON, as a line and column a user can find in an editor.
///
/// We scan ourselves rather than trust `JSONSerialization`: on Linux it accepts trailing commas and
/// its errors carry no byte offset in `userInfo`, only a free-text "around character N".
public struct JSONScanner {
    /// Why and where the input is not JSON.
    public struct Failure: Error, CustomStringConvertible {
        /// Byte offset of the problem.
        public var offset: Int
        /// What is wrong there.
        public var reason: String
        /// 1-based line of the problem.
        public var line: Int
        /// 1-based column of the problem, in Unicode scalars from the start of its line.
        public var column: Int

        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The members of a top-level object, or the elements of a top-level array.
    public struct Document {
        /// Whether the top level is an object.
        public var isObject: Bool
        /// Each key of a top-level object with the byte range of its value.
        public var members: [(key: String, value: Range<Int>)]
        /// The byte range of each element of a top-level array.
        public var elements: [Range<Int>] = []
    }

    private let bytes: [UInt8]
    private var i: Int
    private let end: Int
    private var members: [(key: String, value: Range<Int>)] = []
    private var elements: [Range<Int>] = []
    private static let maximumDepth = 512

    private init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        i = range.lowerBound
        end = range.upperBound
    }

    /// Validates `bytes[range]` as one JSON text whose top level is an object or an array (or, when
    /// `allowScalar`, any value).
    public static func scan(_ bytes: [UInt8], range: Range<Int>? = nil, allowScalar: Bool = false) throws(Failure)
        -> Document
    {
        var scanner = JSONScanner(bytes, range ?? bytes.indices)
        do throws(Problem) {
            scanner.skipWhitespace()
            guard scanner.i < scanner.end else {
                throw Problem(scanner.i, "empty input: expected a JSON object or array")
            }
            let first = bytes[scanner.i]
            if first == 0xEF, bytes[scanner.i...].starts(with: [0xEF, 0xBB, 0xBF]) {
                throw Problem(scanner.i, "a byte order mark (EF BB BF) before the JSON text: send the text without it")
            }
            guard allowScalar || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                throw Problem(scanner.i, "expected a JSON object or array")
            }
            try scanner.value(depth: 0, topLevel: true)
            scanner.skipWhitespace()
            if scanner.i < scanner.end { throw Problem(scanner.i, "unexpected text after the JSON value") }
            return Document(
                isObject: first == UInt8(ascii: "{"), members: scanner.members, elements: scanner.elements)
        } catch {
            throw Self.failure(bytes, error, start: range?.lowerBound ?? 0)
        }
    }

    /// True when `bytes` is one JSON text (any value at its top level).
    public static func isValid(_ bytes: [UInt8]) -> Bool { (try? scan(bytes, allowScalar: true)) != nil }

    private struct Problem: Error {
        var offset: Int
        var reason: String
        init(_ offset: Int, _ reason: String) {
            self.offset = offset
            self.reason = reason
        }
    }

    /// Line and column of `problem` from its byte offset, counting scalars (not continuation bytes).
    private static func failure(_ bytes: [UInt8], _ problem: Problem, start: Int) -> Failure {
        var line = 1
        var column = 1
        var k = start
        while k < problem.offset && k < bytes.count {
            if bytes[k] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[k] & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return Failure(offset: problem.offset, reason: problem.reason, line: line, column: column)
    }

    // MARK: Grammar

    private mutating func skipWhitespace() {
        while i < end {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private func describe(_ offset: Int) -> String {
        guard offset < end else { return "unexpected end of input" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F { return "unexpected character '\(Character(Unicode.Scalar(b)))'" }
        return "unexpected byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    private mutating func value(depth: Int, topLevel: Bool = false) throws(Problem) {
        skipWhitespace()
        guard i < end else { throw Problem(i, "unexpected end of input: expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try object(depth: depth + 1, topLevel: topLevel)
        case UInt8(ascii: "["): try array(depth: depth + 1, topLevel: topLevel)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw Problem(i, "\(describe(i)): expected a value")
        }
    }

    private mutating func object(depth: Int, topLevel: Bool) throws(Problem) {
        if depth > Self.maximumDepth { throw Problem(i, "nested more than \(Self.maximumDepth) levels deep") }
        i += 1
        skipWhitespace()
        if i < end && bytes[i] == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            guard i < end, bytes[i] == UInt8(ascii: "\"") else {
                if i < end && bytes[i] == UInt8(ascii: "}") { throw Problem(i, "trailing comma before '}'") }
                throw Problem(i, "\(describe(i)): expected a member name in double quotes")
            }
            let key = try string()
            skipWhitespace()
            guard i < end, bytes[i] == UInt8(ascii: ":") else {
                throw Problem(i, "\(describe(i)): expected ':' after the member name")
            }
            i += 1
            skipWhitespace()
            let start = i
            try value(depth: depth)
            if topLevel { members.append((Self.decodeKey(bytes, key), start..<i)) }
            skipWhitespace()
            guard i < end else { throw Problem(i, "unexpected end of input: expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return
            }
            throw Problem(i, "\(describe(i)): expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int, topLevel: Bool) throws(Problem) {
        if depth > Self.maximumDepth { throw Problem(i, "nested more than \(Self.maximumDepth) levels deep") }
        i += 1
        skipWhitespace()
        if i < end && bytes[i] == UInt8(ascii: "]") {
            i += 1
            return
        }
        while true {
            skipWhitespace()
            if i < end && bytes[i] == UInt8(ascii: "]") { throw Problem(i, "trailing comma before ']'") }
            let start = i
            try value(depth: depth)
            if topLevel { elements.append(start..<i) }
            skipWhitespace()
            guard i < end else { throw Problem(i, "unexpected end of input: expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return
            }
            throw Problem(i, "\(describe(i)): expected ',' or ']'")
        }
    }

    /// Scans a string; returns the range of its contents (between the quotes, escapes undecoded).
    private mutating func string() throws(Problem) -> Range<Int> {
        let open = i
        i += 1
        let start = i
        while i < end {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return start..<(i - 1)
            case UInt8(ascii: "\\"):
                guard i + 1 < end else { throw Problem(i + 1, "unexpected end of input in a string") }
                switch bytes[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    for k in 2..<6 {
                        guard i + k < end, Self.isHexDigit(bytes[i + k]) else {
                            throw Problem(i + k, "invalid \\u escape: expected four hex digits")
                        }
                    }
                    i += 6
                default: throw Problem(i, "invalid escape sequence in a string")
                }
            case 0..<0x20:
                throw Problem(i, "control character in a string (escape it, e.g. \\n)")
            case 0x80...:
                i += try utf8Sequence(at: i)
            default:
                i += 1
            }
        }
        throw Problem(open, "unterminated string")
    }

    /// Length of the valid UTF-8 sequence at `k`.
    private func utf8Sequence(at k: Int) throws(Problem) -> Int {
        let lead = bytes[k]
        let (length, low, high): (Int, UInt8, UInt8) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xE1...0xEF: (3, 0x80, 0xBF)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            default: (0, 0, 0)
            }
        guard length > 0, k + length <= end else { throw Problem(k, "invalid UTF-8") }
        guard (low...high).contains(bytes[k + 1]) else { throw Problem(k, "invalid UTF-8") }
        for n in 2..<length where bytes[k + n] & 0xC0 != 0x80 { throw Problem(k, "invalid UTF-8") }
        return length
    }

    private mutating func literal(_ word: StaticString) throws(Problem) {
        let start = i
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard i < end, bytes[i] == expected else { throw Problem(start, "\(describe(start)): expected a value") }
            i += 1
        }
    }

    private mutating func number() throws(Problem) {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end, Self.isDigit(bytes[i]) else { throw Problem(i, "invalid number: expected a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < end && Self.isDigit(bytes[i]) { throw Problem(i, "invalid number: leading zero") }
        } else {
            while i < end && Self.isDigit(bytes[i]) { i += 1 }
        }
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, Self.isDigit(bytes[i]) else {
                throw Problem(i, "invalid number: expected a digit after '.'")
            }
            while i < end && Self.isDigit(bytes[i]) { i += 1 }
        }
        if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < end && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < end, Self.isDigit(bytes[i]) else { throw Problem(i, "invalid number: expected an exponent") }
            while i < end && Self.isDigit(bytes[i]) { i += 1 }
            try checkRange(from: start)
        } else if i - start > 300 {
            try checkRange(from: start)
        }
    }

    /// Refuses a number beyond a Double's range (1e999): read as infinity, it has no JSON form to be written back
    /// in, and the whole document it is in would be stored as `null`. Only exponents and very long numbers can be.
    private func checkRange(from start: Int) throws(Problem) {
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Problem(start, "number out of range: \(text.prefix(40)) is beyond ±1.8e308")
        }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
    }

    /// A member name with its escapes decoded.
    private static func decodeKey(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        let raw = bytes[range]
        if !raw.contains(UInt8(ascii: "\\")) { return String(decoding: raw, as: UTF8.self) }
        let quoted = Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])
        return (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed)) as? String
            ?? String(decoding: raw, as: UTF8.self)
    }
}
