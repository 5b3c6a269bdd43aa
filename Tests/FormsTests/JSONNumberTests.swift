import Foundation
import MusterWire
import Testing

/// A JSON number keeps an integer a `Double` would round, up to 64 bits: seed 000's `state` is "copied unaltered",
/// and a 64-bit id is the usual thing to correlate a request with.
@Suite struct JSONNumberTests {
    /// Integers beyond ±2^53 that fit in 64 bits, as JSON writes them.
    static let wideIntegers = [
        "9007199254740993", "-9007199254740993", "1234567890123456789", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "18446744073709551615",
    ]

    @Test(arguments: wideIntegers)
    func aWideIntegerIsReadAndWrittenBackExactly(digits: String) throws {
        let text = #"{"n":[\#(digits)],"state":{"id":\#(digits)}}"#
        let value = try JSONValue(json: Data(text.utf8))
        #expect(value.description == text)
        var writer = JSONWriter()
        writer.write(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(decoded == value)
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self).contains(digits))
    }

    @Test func aWideIntegerIsTheIntItNames() throws {
        #expect(try JSONValue(json: Data("9007199254740993".utf8)).intValue == 9_007_199_254_740_993)
        #expect(try JSONValue(json: Data("-9223372036854775808".utf8)).intValue == Int.min)
        #expect(try JSONValue(json: Data("18446744073709551615".utf8)).intValue == nil)
        #expect(try JSONValue(json: Data("18446744073709551615".utf8)).doubleValue == 18_446_744_073_709_551_615)
    }

    @Test func twoEqualNumbersAreEqualHoweverMade() {
        let even = Int64(1) << 60  // a Double holds it exactly
        #expect(JSONNumber(even) == JSONNumber(Double(even)))
        #expect(JSONNumber(even).hashValue == JSONNumber(Double(even)).hashValue)
        let odd = even + 1  // a Double rounds it to `even`
        #expect(JSONNumber(odd) != JSONNumber(even))
        #expect(JSONNumber(odd).double == JSONNumber(even).double)
        #expect(JSONValue.number(3) == JSONValue.number(JSONNumber(3)))
    }

    @Test(arguments: [
        ("123456789012345678901234", "1.2345678901234569e+23"),  // wider than 64 bits: as a Double holds it
        ("1e2", "100"), ("-0", "0"), ("0.1", "0.1"), ("12345678901234567.5", "12345678901234568"), ("1e300", "1e+300"),
    ])
    func anyOtherNumberIsWhatItsDoubleIs(text: String, written: String) throws {
        #expect(try JSONValue(json: Data(text.utf8)).description == written)
    }

    @Test func integerDigitsAreOnlyAnOptionalMinusAndDigits() {
        #expect(JSONNumber(integerDigits: "1.5") == nil)
        #expect(JSONNumber(integerDigits: "1e3") == nil)
        #expect(JSONNumber(integerDigits: "18446744073709551616") == nil)
        #expect(JSONNumber(integerDigits: "-42")?.int == -42)
    }
}
