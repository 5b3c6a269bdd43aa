import Foundation
import MusterWire
import PropertyBased
import Testing

/// `JSONValue(json:)` reads what Foundation's `JSONDecoder` reads, to the same value, and refuses what is not JSON
/// with where it stops being JSON.
@Suite struct JSONValueParsingTests {
    /// What Foundation makes of a text, through `JSONValue`'s `Decodable` conformance.
    private func foundation(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test(arguments: [
        #"{"Timestamp":1729000000,"Proximity":false,"Battery":87,"Acceleration":{"LinearX":0.12,"LinearY":0.0,"#
            + #""LinearZ":-1.0},"Rotation":{"RotationRoll":3,"RotationYaw":2,"RotationPitch":-2}}"#,
        #"  [ 1 , -0 , 0.5 , -12.25e3 , 1E-7 , 9007199254740993 , 123456789012345678901234 , 1e308 ]  "#,
        #"{"escapes":"a\"b\\c\/d\b\f\n\r\t","unicode":"\u00e9\u4e2d\ud83d\ude00","raw":"é中😀"}"#,
        #"{"nested":{"a":[{"b":[[],{}]},null,true,false]},"":"empty key","k\u0041":"escaped key"}"#,
        #""a string alone""#, "42", "true", "null", "[]", "{}",
        "{\"QRContent\":\"{\\\"id\\\": 3}\",\"n\":-0.0000001}",
    ])
    func readsTheSameValueAsFoundation(text: String) throws {
        #expect(try JSONValue(json: Data(text.utf8)) == foundation(text))
    }

    @Test func anyValueReadsBackFromItsOwnText() async {
        await propertyCheck(
            input: Gen.int(in: -1_000_000_000...1_000_000_000), Gen.double(in: -1e12...1e12),
            Gen.int(in: 1...0x1F600).map { Unicode.Scalar(UInt32($0)) ?? "?" }.array(of: 0...12).array(of: 0...4),
            Gen.bool
        ) { integer, real, scalars, flag in
            let words = scalars.map { String(String.UnicodeScalarView($0)) }
            var nested: [String: JSONValue] = [:]
            for (index, word) in words.enumerated() { nested["\(index)\(word)"] = .bool(flag) }
            let value = JSONValue.object([
                "integer": .number(Double(integer)), "real": .number(real),
                "words": .array(words.map(JSONValue.string)), "nested": .object(nested), "none": .null,
            ])
            #expect((try? JSONValue(json: value.jsonData())) == value)
        }
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8, "trailing comma"),
        ("{\"a\":01}", 1, 7, "leading zero"),
        ("[1,\n  tru]", 2, 3, "expected a value"),
        ("\"tab\tinside\"", 1, 5, "control character"),
        ("{\"a\":1} x", 1, 9, "unexpected text after"),
        ("", 1, 1, "empty input"),
        // Found by fuzzing: read as infinity, a number beyond a Double's range made the whole value write as null.
        ("[1,1e999]", 1, 4, "out of range"),
        ("{\"a\":-1E+400}", 1, 6, "out of range"),
        ("[" + String(repeating: "9", count: 400) + "]", 1, 2, "out of range"),
        // RFC 8259 §8.1 lets a reader ignore a byte order mark or refuse it; refused, it is named as such.
        ("\u{FEFF}{\"a\":1}", 1, 1, "a byte order mark (EF BB BF)"),
    ])
    func refusesWhatIsNotJSONNamingWhere(text: String, line: Int, column: Int, reason: String) {
        #expect {
            _ = try JSONValue(json: Data(text.utf8))
        } throws: { error in
            guard let failure = error as? JSONScanner.Failure else { return false }
            return failure.line == line && failure.column == column && failure.reason.contains(reason)
        }
    }

    @Test func aRepeatedMemberKeepsItsLastValue() throws {
        #expect(try JSONValue(json: Data(#"{"a":1,"a":2}"#.utf8)) == ["a": 2])
    }

    @Test func aLoneSurrogateEscapeReadsAsTheReplacementCharacter() throws {
        #expect(try JSONValue(json: Data(#""\ud800x""#.utf8)) == "\u{FFFD}x")
    }
}
