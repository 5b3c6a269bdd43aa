import Foundation
import Testing

@testable import Geo

@Suite struct ExpressionFunctionTests {
    static let calls: [(String, ArcadeValue)] = [
        ("IIf(true, 'a', 'b')", "a"), ("iif(1 > 2, 'a', 'b')", "b"),
        ("IIf(true, 'a', $fencefeature.missing)", "a"),
        ("When(false, 1, true, 2, 3)", 2), ("When(false, 1, false, 2, 3)", 3), ("WHEN(true, 'x', 1 / 0)", "x"),
        ("When($fencenotificationtype == 'exited', 'bye', 'hi')", "hi"),
        ("Decode(2, 1, 'one', 2, 'two', 'many')", "two"), ("Decode(9, 1, 'one', 'many')", "many"),
        ("Decode('x', 'default')", "default"), ("Decode('1', 1, 'number', '1', 'text', '?')", "text"),
        ("Decode($fencenotificationtype, 'entered', 'in', 'exited', 'out', '')", "in"),
        ("DefaultValue(null, 'd')", "d"), ("DefaultValue('', 'd')", "d"), ("DefaultValue('v', 'd')", "v"),
        ("DefaultValue(0, 'd')", 0), ("DefaultValue($fencefeature.note, 'no note')", "no note"),
        ("DefaultValue($fencefeature.owner, 'nobody')", "nobody"),
        ("DefaultValue($fencefeature.missing, 'absent')", "absent"),
        ("DefaultValue($feedfeature.address.zip.code, 0)", 0), ("DefaultValue($fencefeature.tags[5], 'none')", "none"),
        ("DefaultValue($fencefeature['area_name'], 'x')", "Area A"),
        ("Upper('MiXed é')", "MIXED É"), ("Lower('MiXed É')", "mixed é"), ("Upper(12)", "12"), ("Lower(null)", ""),
        ("Round(3.14159, 2)", 3.14), ("Round(2.5)", 3), ("Round(-2.5)", -3), ("Round(1234.5, -2)", 1200),
        ("Round($feedfeature.speed, 1)", 3.5), ("Round('2.46', 1)", 2.5),
        ("Text(5)", "5"), ("Text(null)", ""), ("Text([1, 'a'])", #"[1,"a"]"#), ("Text(true)", "true"),
        ("Text(3.14159, '#.00')", "3.14"), ("Text(0.5, '#.00')", "0.50"),
        ("Text(1234567.891, '#,##0.0')", "1,234,567.9"),
        ("Text(2, '#.##')", "2"), ("Text(2.1, '0.0#')", "2.1"), ("Text(2.125, '0.0#')", "2.13"),
        ("Text(7, '000')", "007"),
        ("Text(-1234.5, '#,###')", "-1,235"), ("Text(-0.001, '#.00')", "0.00"), ("Text('12.5', '#')", "13"),
        ("Now() == Now()", true), ("Text(Now())", "2026-03-29T00:30:00.000Z"), ("Now() > 0", true),
        ("Concatenate(['a', 'b', 'c'], '-')", "a-b-c"), ("Concatenate('solo')", "solo"),
        ("Concatenate([1.5, 'x'], ' ', '0.00')", "1.50 x"), ("Concatenate([])", ""),
    ]

    @Test(arguments: calls)
    func functionsOfTheSubset(source: String, expected: ArcadeValue) throws {
        #expect(try evaluate(source) == expected)
    }

    /// Numbers become text as Arcade writes them (JavaScript's rules): plain from 1e-6 up to 1e21, never `.0`.
    @Test(arguments: [
        (1e15, "1000000000000000"), (4.5e15, "4500000000000000"), (1e16, "10000000000000000"),
        (1e21, "1e+21"), (1.5e22, "1.5e+22"), (0.000001, "0.000001"), (0.0000015, "0.0000015"), (1e-7, "1e-7"),
        (-2.5e-8, "-2.5e-8"), (123.456, "123.456"), (-42, "-42"), (0.1, "0.1"), (100, "100"), (-0.0, "0"),
        (9007199254740993, "9007199254740992"),
    ])
    func aNumbersTextIsArcades(number: Double, text: String) {
        #expect(ArcadeValue.text(of: number) == text)
    }

    @Test func nowComesFromTheInjectedClock() throws {
        var context = fenceContext()
        context.now = Date(timeIntervalSince1970: 0)
        #expect(try evaluate("Now()", context) == .date(Date(timeIntervalSince1970: 0)))
        #expect(try evaluate("Text(Now())", context) == "1970-01-01T00:00:00.000Z")
    }

    @Test func decodeAndWhenEvaluateOnlyTheBranchTheyPick() throws {
        // The unpicked branches would each fail on a missing attribute.
        #expect(try evaluate("Decode(1, 1, 'ok', $fencefeature.nope)") == "ok")
        #expect(try evaluate("When(true, 'ok', $fencefeature.nope)") == "ok")
        #expect(try evaluate("IIf(false, $fencefeature.nope, 'ok')") == "ok")
        #expect(try evaluate("false && $fencefeature.nope") == false)
    }
}
