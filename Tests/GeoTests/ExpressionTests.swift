import Foundation
import Testing

@testable import Geo

@Suite struct ExpressionTests {
    /// Seed 003 line 57, verbatim: "returns the … message "You have entered Area A"".
    static let seedExample = #""You have " + $fencenotificationtype + " " + $fencefeature.area_name"#

    @Test(arguments: [(FenceNotificationType.entered, "You have entered Area A"), (.exited, "You have exited Area A")])
    func theSeedsMessageExpression(type: FenceNotificationType, expected: String) throws {
        let message = try MessageExpression(Self.seedExample).message(for: fenceContext(type))
        #expect(message == GeotriggerMessage(message: expected))
    }

    /// Seed 003 lines 65–67 describe, without showing it, an expression giving the message "Hello world"
    /// and the actions "startTracking" or "stopTracking"; this is that expression written in the subset.
    static let seedDictionaryExample = """
        return {
          "message": "Hello world",
          "actions": [IIf($fencenotificationtype == "entered", "startTracking", "stopTracking")]
        }
        """

    @Test(arguments: [(FenceNotificationType.entered, "startTracking"), (.exited, "stopTracking")])
    func theSeedsDictionaryWithMessageAndActions(type: FenceNotificationType, action: String) throws {
        let message = try MessageExpression(Self.seedDictionaryExample).message(for: fenceContext(type))
        #expect(message == GeotriggerMessage(message: "Hello world", actions: [action]))
    }

    @Test func otherKeysBecomeMessagePropertiesAndTheMessageIsConvertedToText() throws {
        let source = #"{ message: 42, actions: ["a", "b"], "log": "fence " + $fencefeature.id, level: 2 }"#
        let message = try MessageExpression(source).message(for: fenceContext())
        #expect(message.message == "42")
        #expect(message.actions == ["a", "b"])
        #expect(message.properties == ["log": "fence 7", "level": 2])
    }

    @Test(arguments: [
        (#"{ "actions": null }"#, GeotriggerMessage(message: "")),
        (#"{ "message": null, "actions": [] }"#, GeotriggerMessage(message: "")),
        (#"`${Upper($fencenotificationtype)}`"#, GeotriggerMessage(message: "ENTERED")),
    ])
    func resultsThatAreMessages(source: String, expected: GeotriggerMessage) throws {
        #expect(try MessageExpression(source).message(for: fenceContext()) == expected)
    }

    static let literals: [(String, ArcadeValue)] = [
        ("12", 12), ("3.5", 3.5), (".5", 0.5), ("1e3", 1000), ("2.5E-1", 0.25),
        ("'single'", "single"), (#""double""#, "double"), (#""it's""#, "it's"), (#"'say "hi"'"#, #"say "hi""#),
        (#""a\nb\t\\\"\u00e9\/""#, "a\nb\t\\\"é/"), (#"'\''"#, "'"),
        ("true", true), ("FALSE", false), ("null", nil), ("Null", nil),
        ("[]", []), ("[1, 'a', [true]]", [1, "a", [true]]), ("[1, 2,]", [1, 2]),
        ("{}", [:]), (#"{"b": 1, a: 2}"#, ["b": 1, "a": 2]), (#"{"x": {"y": [null]}}"#, ["x": ["y": [nil]]]),
        ("`plain`", "plain"), ("``", ""), ("`a ${1 + 1} b ${'c'}`", "a 2 b c"), ("`${ {'k': 'v'}.k }`", "v"),
        ("`line\none`", "line\none"), (#"`\${not}`"#, "${not}"), ("`nested ${`inner ${1}`}`", "nested inner 1"),
    ]

    @Test(arguments: literals)
    func literalsEvaluateToTheirValue(source: String, expected: ArcadeValue) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test func dictionaryKeysKeepTheirOrder() throws {
        guard case .dictionary(let dictionary) = try evaluate("{z: 1, a: 2, m: 3}") else {
            Issue.record("not a dictionary")
            return
        }
        #expect(dictionary.keys == ["z", "a", "m"])
    }

    static let operators: [(String, ArcadeValue)] = [
        ("1 + 2", 3), ("'a' + 1", "a1"), ("1 + 'a'", "1a"), ("1.5 + 'x'", "1.5x"), ("'n' + null", "n"),
        ("'b' + true", "btrue"), ("'a' + [1, 'b']", #"a[1,"b"]"#), ("'d' + {k: 1}", #"d{"k":1}"#),
        ("true + 1", 2), ("null + 1", 1), ("'3' - 1", 2), ("'x' * 2", .number(.nan)), ("7 - 2 - 1", 4),
        ("2 * 3 + 4", 10), ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20), ("7 / 2", 3.5), ("1 / 0", .number(.infinity)),
        ("7 % 3", 1), ("-3", -3), ("--3", 3), ("-'4'", -4), ("+'4'", 4),
        ("1 == 1", true), ("1 == '1'", false), ("'a' != 'b'", true), ("null == null", true), ("[1] == [1]", true),
        ("1 < 2", true), ("2 <= 2", true), ("3 > 2", true), ("2 >= 3", false), ("'10' < '9'", true),
        ("10 < '9'", false),
        ("true && false", false), ("true || false", true), ("!true", false), ("!(1 > 2)", true),
        ("true || 1", true), ("false && 1", false), ("1 < 2 && 2 < 3 || false", true),
        ("'x' == 'x' && !false", true), ("1 + 1 == 2", true),
        ("{a: {b: 'c'}}.a.b", "c"), (#"{a: 1}["a"]"#, 1), ("[10, 20, 30][1]", 20), ("[10, 20, 30][-1]", 30),
        ("$fencefeature.AREA_NAME", "Area A"), ("$feedfeature.address.city", "Lyon"),
        ("$feedfeature['name']", "van 12"), ("$fencefeature.tags[0]", "a"), ("$fencefeature.owner", nil),
        ("$fencenotificationtype", "entered"),
    ]

    @Test(arguments: operators)
    func operatorsFollowArcadesConversionRules(source: String, expected: ArcadeValue) throws {
        let value = try evaluate(source)
        if case .number(let number) = expected, number.isNaN {
            #expect(value.numberValue.isNaN)
        } else {
            #expect(value == expected)
        }
    }

    static let programs: [(String, ArcadeValue)] = [
        ("var x = 2; x * 3", 6),
        ("var name = $fencefeature.area_name\nreturn `at ${name}`", "at Area A"),
        ("var a = 1; var A = a + 1; return a + 1", 3),
        ("// note\n'a' /* inline */ + 'b'", "ab"),
        ("1;;; 2;", 2),
        ("var x = 1\nvar y = x + 1\ny", 2),
    ]

    @Test(arguments: programs)
    func declarationsAndReturn(source: String, expected: ArcadeValue) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test func aProgramOfOnlyDeclarationsIsNull() throws {
        #expect(try evaluate("var x = 1") == .null)
    }

    @Test(arguments: [
        (ArcadeValue.number(5), "5"), (-0.5, "-0.5"), (1e21, "1e+21"), (0.1, "0.1"), (nil, ""), (true, "true"),
        (.date(expressionNow), "2026-03-29T00:30:00.000Z"), (["a": [1, nil]] as ArcadeValue, #"{"a":[1,null]}"#),
        ("q\"", "q\""), (["q\"\n"] as ArcadeValue, #"["q\"\n"]"#),
    ])
    func textConversion(value: ArcadeValue, text: String) {
        #expect(value.textValue == text)
    }
}
