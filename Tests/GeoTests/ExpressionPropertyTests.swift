import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct ExpressionPropertyTests {
    /// Values built from a list of seeds: numbers, texts with quotes, escapes and non-ASCII, and
    /// arrays and dictionaries nested a few levels.
    static let anyValue = Gen.int(in: 0...1_000_000).array(of: 0...24).map { seeds in
        var rest = seeds[...]
        return value(from: &rest, depth: 0)
    }

    static let pieces = ["a", "Z", " ", "'", "\"", "\\", "\n", "\t", "`", "$", "{", "é", "😀", "\u{1}", "${x}"]

    static func value(from seeds: inout ArraySlice<Int>, depth: Int) -> ArcadeValue {
        guard let seed = seeds.popFirst() else { return .null }
        switch seed % (depth < 3 ? 7 : 5) {
        case 0: return .null
        case 1: return .boolean(seed % 2 == 0)
        case 2: return .number(Double(seed % 20_001 - 10_000) / Double([1, 4, 1000, 3][seed % 4]))
        case 3, 4:
            return .text((0..<(seed % 9)).map { pieces[(seed / (3 + $0)) % pieces.count] }.joined())
        case 5:
            return .array((0..<(seed % 4)).map { _ in value(from: &seeds, depth: depth + 1) })
        default:
            var dictionary = ArcadeDictionary()
            for offset in 0..<(seed % 4) {
                dictionary["k\(offset)\(pieces[seed % 5])"] = value(from: &seeds, depth: depth + 1)
            }
            return .dictionary(dictionary)
        }
    }

    /// `value` written as a literal of the language.
    static func literal(_ value: ArcadeValue) -> String {
        switch value {
        case .null: "null"
        case .boolean(let flag): flag ? "true" : "false"
        case .number(let number): "\(number)"
        case .text(let text): ArcadeValue.quoted(text)
        case .date: "Now()"
        case .array(let elements): "[" + elements.map(literal).joined(separator: ", ") + "]"
        case .dictionary(let dictionary):
            "{"
                + dictionary.entries.map { ArcadeValue.quoted($0.key) + ": " + literal($0.value) }
                .joined(separator: ", ") + "}"
        }
    }

    @Test func printingALiteralAndParsingItBackGivesTheSameValue() async {
        await propertyCheck(input: Self.anyValue) { value in
            let parsed = try evaluate(Self.literal(value))
            #expect(parsed == value)
        }
    }

    @Test func textConcatenationIsTextConversion() async {
        await propertyCheck(input: Self.anyValue, Self.anyValue) { left, right in
            let source = "'' + \(Self.literal(left)) + \(Self.literal(right))"
            let concatenated = try evaluate(source)
            #expect(concatenated == .text(left.textValue + right.textValue))
        }
    }

    static let vocabulary = [
        "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "+", "-", "*", "/", "%", "!", "==", "!=", "<", ">=",
        "&&", "||", "=", "1", "2.5", "'t'", "\"u\"", "`a${", "`", "${", "true", "null", "var", "x", "return",
        "IIf", "When", "Decode", "DefaultValue", "Upper", "Round", "Text", "Now", "Concatenate",
        "$fencefeature", "$feedfeature", "$fencenotificationtype", "area_name", "\n", "\\", "'", "/*", "#",
    ]
    static let tokenSoup = Gen.int(in: 0...(vocabulary.count - 1)).array(of: 0...40).map { indices in
        indices.map { vocabulary[$0] }.joined(separator: indices.count % 3 == 0 ? "" : " ")
    }

    @Test func tokenSoupNeverCrashesAndErrorsPointInsideTheSource() async {
        await propertyCheck(input: Self.tokenSoup) { source in
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            do {
                let expression = try MessageExpression(source)
                _ = try? expression.message(for: fenceContext())
            } catch let error as ExpressionError {
                #expect(error.position.line >= 1 && error.position.line <= lines.count)
                #expect(error.position.column >= 1 && error.position.column <= lines[error.position.line - 1].count + 1)
                #expect(!error.message.isEmpty)
            } catch {
                Issue.record("not an ExpressionError: \(error)")
            }
        }
    }
}
