/// Why an expression cannot be parsed or evaluated: where (line and column), and what was expected.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule the expression broke.
    public let code: Code
    /// Where in the source, 1-based; evaluation errors point at the construct that failed.
    public let position: SourcePosition
    /// What is wrong, in words, naming what was expected and what was found.
    public let message: String

    /// Creates an expression error.
    public init(_ code: Code, at position: SourcePosition, _ message: String) {
        self.code = code
        self.position = position
        self.message = message
    }

    /// e.g. `line 1, column 12: expected ')' after the arguments of IIf, found end of expression [syntax]`.
    public var description: String { "\(position): \(message) [\(code)]" }

    /// The rules; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The code's short name.
        public var description: String { name }

        /// The source does not follow the grammar.
        public static let syntax = Code("syntax")
        /// The source is longer than the limit, or nests deeper than the limit.
        public static let tooComplex = Code("too-complex")
        /// A call of a function the subset does not have, or with the wrong number of arguments.
        public static let unknownFunction = Code("unknown-function")
        /// A variable that was not declared, or a profile variable that does not exist.
        public static let unknownVariable = Code("unknown-variable")
        /// A dictionary without the attribute asked for, or an array index out of range.
        public static let missingAttribute = Code("missing-attribute")
        /// A value of the wrong type for an operator or function.
        public static let typeMismatch = Code("type-mismatch")
        /// Evaluation took more steps, or built more text, than the limits allow.
        public static let budgetExceeded = Code("budget-exceeded")
        /// The result is neither text nor a dictionary, or its `actions` are not texts.
        public static let badResult = Code("bad-result")
    }
}

/// A place in an expression's source: 1-based line, and column counted in characters.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public let line: Int
    /// The column, from 1, in characters.
    public let column: Int

    /// `line 1, column 12`.
    public var description: String { "line \(line), column \(column)" }

    /// Earlier lines first, then earlier columns.
    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
}
