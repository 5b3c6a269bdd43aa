import Foundation
import Testing

@testable import Geo

@Suite struct ExpressionErrorTests {
    static let malformed: [(String, String)] = [
        (
            #"IIf(true, "a""#,
            "line 1, column 14: expected ')' after the arguments of IIf, found end of expression [syntax]"
        ),
        ("1 +", "line 1, column 4: expected an expression, found end of expression [syntax]"),
        (
            #""abc"#,
            #"line 1, column 1: expected " to close the text that starts here, found end of expression [syntax]"#
        ),
        ("var x = 1;\nx +* 2", "line 2, column 4: expected an expression, found '*' [syntax]"),
        (#""a" "b""#, #"line 1, column 5: expected ';' or a new line between statements, found text "b" [syntax]"#),
        (
            #"{"message" 1}"#,
            #"line 1, column 12: expected ':' after the dictionary key "message", found number 1 [syntax]"#
        ),
        ("`a ${1 +}`", "line 1, column 9: expected an expression, found '}' [syntax]"),
        ("`a ${1 2}`", "line 1, column 8: expected '}' to close '${' in the template literal, found number 2 [syntax]"),
        (
            "`a ${1",
            "line 1, column 7: expected '}' to close '${' in the template literal, found end of expression [syntax]"
        ),
        (
            "`open",
            "line 1, column 1: expected ` to close the template literal that starts here, found end of expression [syntax]"
        ),
        (
            "return 1; 2",
            "line 1, column 11: expected end of expression after the return statement, found number 2 [syntax]"
        ),
        ("1 # 2", "line 1, column 3: expected an expression, found unexpected character '#' [syntax]"),
        ("'a\\q'", "line 1, column 3: expected one of n t r b f \\ ' \" ` $ / u after '\\', found 'q' [syntax]"),
        ("'\\u12'", "line 1, column 2: expected four hex digits after '\\u', found ''' [syntax]"),
        ("/* never closed", "line 1, column 1: expected '*/' to close the comment, found end of expression [syntax]"),
        ("$", "line 1, column 1: expected a profile variable name after '$', found end of expression [syntax]"),
        ("{a: 1}.", "line 1, column 8: expected an attribute name after '.', found end of expression [syntax]"),
        ("[1, 2", "line 1, column 6: expected ']' or ',' after an array element, found end of expression [syntax]"),
        ("var = 3", "line 1, column 5: expected a variable name after 'var', found '=' [syntax]"),
        ("var x 3", "line 1, column 7: expected '=' after the variable name x, found number 3 [syntax]"),
        ("x = 3", "line 1, column 1: unknown variable 'x'; none are declared [unknown-variable]"),
        ("var a = 1\n  b", "line 2, column 3: unknown variable 'b'; declared: a [unknown-variable]"),
        (
            "Foo(1)",
            "line 1, column 1: unknown function 'Foo'; available: Concatenate, Decode, DefaultValue, IIf, Lower, Now, Round, Text, Upper, When [unknown-function]"
        ),
        (
            "\n  $fence.name",
            "line 2, column 3: unknown profile variable $fence; available: $fencenotificationtype, $fencefeature, $feedfeature [unknown-variable]"
        ),
        (
            "IIf(true, 1)",
            "line 1, column 1: IIf takes 3 arguments (condition, value if true, value if false), found 2 [unknown-function]"
        ),
        ("Now(1)", "line 1, column 1: Now takes no arguments, found 1 [unknown-function]"),
        (
            "When(true, 1)",
            "line 1, column 1: When takes condition/value pairs and a default (an odd count, at least 3), found 2 [unknown-function]"
        ),
    ]

    @Test(arguments: malformed)
    func parseErrorsNameLineColumnAndWhatWasExpected(source: String, description: String) {
        #expect(expressionError(source)?.description == description)
    }

    static let failing: [(String, String)] = [
        (
            "'x' + $fencefeature.area_nam",
            "line 1, column 20: $fencefeature has no attribute 'area_nam'; it has: area_name, id, note, owner, tags [missing-attribute]"
        ),
        (
            "$feedfeature.address.zip",
            "line 1, column 21: $feedfeature.address has no attribute 'zip'; it has: city [missing-attribute]"
        ),
        (
            "$fencefeature.tags[2]",
            "line 1, column 19: index 2 is outside $fencefeature.tags, which has 2 elements [missing-attribute]"
        ),
        (
            "$fencefeature.owner.name",
            "line 1, column 20: expected a dictionary to read 'name' from, found Null in $fencefeature.owner [type-mismatch]"
        ),
        ("IIf(1, 2, 3)", "line 1, column 5: expected a Boolean for the condition of IIf, found Number [type-mismatch]"),
        ("1 && true", "line 1, column 3: expected a Boolean for '&&', found Number [type-mismatch]"),
        ("!'yes'", "line 1, column 1: expected a Boolean for !, found Text [type-mismatch]"),
        ("[1] - 1", "line 1, column 5: expected numbers for '-', found Array and Number [type-mismatch]"),
        (
            "Round(1, 0.5)",
            "line 1, column 10: expected a whole number of places from -15 to 15 for Round, found 0.5 [type-mismatch]"
        ),
        (
            "Text(1, 'yyyy')",
            ##"line 1, column 9: expected a number format of # 0 , . (such as "#,##0.00"), found "yyyy" [type-mismatch]"##
        ),
    ]

    @Test(arguments: failing)
    func evaluationErrorsNameWhatIsMissing(source: String, description: String) {
        #expect(expressionError(source)?.description == description)
    }

    static let badResults: [(String, String)] = [
        ("1 + 2", "expected the expression to return Text or a Dictionary, found Number"),
        ("[1]", "expected the expression to return Text or a Dictionary, found Array"),
        ("var x = 1", "expected the expression to return Text or a Dictionary, found Null"),
        (#"{"actions": "go"}"#, "expected actions to be an array of texts, found Text"),
        (#"{"actions": ["go", 2]}"#, "expected the actions to be texts, found Number at index 1"),
    ]

    @Test(arguments: badResults)
    func aResultThatIsNotAMessageIsRefused(source: String, message: String) throws {
        let expression = try MessageExpression(source)
        #expect(throws: ExpressionError(.badResult, at: SourcePosition(line: 1, column: 1), message)) {
            try expression.message(for: fenceContext())
        }
    }
}
