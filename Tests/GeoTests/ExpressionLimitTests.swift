import Foundation
import Testing

@testable import Geo

@Suite struct ExpressionLimitTests {
    static let deep = 10_000

    /// A source nested far past the limit, and where the parser gives up.
    struct Nesting: Sendable, CustomTestStringConvertible {
        let name: String
        let source: String
        let position: String
        var testDescription: String { name }
        init(_ name: String, _ source: String, _ position: String) {
            self.name = name
            self.source = source
            self.position = position
        }
    }

    static let nested: [Nesting] = [
        Nesting(
            "parentheses", String(repeating: "(", count: deep) + "1" + String(repeating: ")", count: deep),
            "line 1, column 49"),
        Nesting("arrays", String(repeating: "[", count: deep), "line 1, column 49"),
        Nesting("dictionaries", String(repeating: "{a:", count: deep), "line 1, column 145"),
        Nesting("calls", String(repeating: "Upper(", count: deep), "line 1, column 289"),
        Nesting("negations", String(repeating: "!", count: deep) + "true", "line 1, column 48"),
        Nesting("minus signs", String(repeating: "-", count: deep) + "1", "line 1, column 48"),
        Nesting("templates", String(repeating: "`${", count: deep), "line 1, column 145"),
        Nesting("member chains", "{}" + String(repeating: ".a", count: deep), "line 1, column 97"),
    ]

    @Test(arguments: nested)
    func deepNestingIsRefusedWhileParsing(nesting: Nesting) {
        let error = expressionError(nesting.source)
        #expect(error?.code == .tooComplex)
        #expect(error?.position.description == nesting.position)
    }

    @Test func nestingUpToTheLimitIsFine() throws {
        let depth = ExpressionLimits.standard.maximumDepth - 1
        let source = String(repeating: "(", count: depth) + "'ok'" + String(repeating: ")", count: depth)
        #expect(try evaluate(source) == "ok")
    }

    @Test func aLongChainIsFlatAndRunsWithinTheBudget() throws {
        #expect(try evaluate("1" + String(repeating: " + 1", count: 6_000)) == 6_001)
    }

    @Test func aChainLongerThanTheStepBudgetStopsAtTheStepThatExceedsIt() {
        let error = expressionError("1" + String(repeating: " + 1", count: 12_000))
        #expect(error?.description == "line 1, column 39997: evaluation exceeded 10000 steps [budget-exceeded]")
    }

    @Test func aSourceLongerThanTheLimitIsRefusedBeforeLexing() {
        let error = expressionError(String(repeating: "1+", count: 40_000) + "1")
        #expect(error?.description == "line 1, column 1: expression longer than 65536 bytes [too-complex]")
    }

    @Test func doublingTextHitsTheTextLimit() {
        var source = "var t0 = 'xxxxxxxxxxxxxxxx'\n"
        for step in 1...20 { source += "var t\(step) = t\(step - 1) + t\(step - 1)\n" }
        let error = expressionError(source + "t20")
        #expect(error?.code == .budgetExceeded)
        #expect(error?.message == "text longer than 65536 bytes")
        // 16 · 2^12 = 65,536 is the last that fits: t13 on line 14 is the first too long.
        #expect(error?.position.line == 14)
    }

    @Test(arguments: ["t + t", "`${t}${t}`", "Concatenate([t, t])", "Concatenate([t, 1], t)", "Text([t, t])"])
    func everyWayOfBuildingTextIsBounded(build: String) {
        let source = "var t = '\(String(repeating: "x", count: 33_000))'\nvar u = \(build)\nu"
        let error = expressionError(source)
        #expect(error?.code == .budgetExceeded)
        #expect(error?.position.line == 2)
    }

    @Test func upperAndLowerAreBoundedToo() {
        // "ß" upper-cases to "SS": 2 bytes become 2, but "ŉ" (2 bytes) becomes "ʼN" (3 bytes).
        let source = "Upper('\(String(repeating: "ŉ", count: 30_000))')"
        #expect(expressionError(source)?.message == "text longer than 65536 bytes")
    }

    @Test func doublingArraysHitsTheStepBudget() {
        var source = "var a0 = [1, 1]\n"
        for step in 1...40 { source += "var a\(step) = [a\(step - 1), a\(step - 1)]\n" }
        let error = expressionError(source + "Text(a40)")
        #expect(error?.code == .budgetExceeded)
        #expect(error?.message == "evaluation exceeded 10000 steps")
    }

    @Test func tighterLimitsApply() {
        let limits = ExpressionLimits(maximumSourceLength: 100, maximumDepth: 3, maximumSteps: 5, maximumTextLength: 4)
        #expect(expressionError("((1))", limits: limits) == nil)
        #expect(expressionError("(((1)))", limits: limits)?.code == .tooComplex)
        // A template's `${…}` counts the nesting around the template.
        #expect(expressionError("(`${1}`)", limits: limits) == nil)
        #expect(expressionError("(`${(1)}`)", limits: limits)?.message == "expression nested deeper than 3 levels")
        #expect(expressionError("1 + 1 + 1 + 1 + 1", limits: limits)?.code == .budgetExceeded)
        #expect(expressionError("'ab' + 'cde'", limits: limits)?.message == "text longer than 4 bytes")
        #expect(expressionError(String(repeating: " ", count: 101), limits: limits)?.code == .tooComplex)
    }
}

@Suite struct ExpressionSharedTextTests {
    /// 1,000 references to one 60,000-byte text: 60 MB if converted naively.
    static let shared = """
        var t = '\(String(repeating: "x", count: 60_000))'
        var a = [t, t, t, t, t, t, t, t, t, t]
        var b = [a, a, a, a, a, a, a, a, a, a]
        var c = [b, b, b, b, b, b, b, b, b, b]
        """

    @Test(arguments: ["Text(c)", "'' + c", "`${c}`", "Concatenate(c)", "Upper(c)"])
    func convertingManyReferencesToOneLongTextStopsAtTheLimit(use: String) {
        let error = expressionError(Self.shared + "\n" + use)
        #expect(error?.description.hasSuffix("text longer than 65536 bytes [budget-exceeded]") == true)
        #expect(error?.position.line == 5)
    }

    @Test func aDictionaryMessageIsBoundedToo() throws {
        let expression = try MessageExpression(Self.shared + "\n{message: c}")
        #expect(
            throws: ExpressionError(
                .badResult, at: SourcePosition(line: 1, column: 1), "expected a message of at most 65536 bytes")
        ) {
            try expression.message(for: fenceContext())
        }
    }

    @Test func aFormatErrorQuotesOnlyAShortPattern() {
        let error = expressionError(Self.shared + "\nText(1, c)")
        #expect(error?.message == "expected a number format of # 0 , . (such as \"#,##0.00\"), found a long Array")
    }
}
