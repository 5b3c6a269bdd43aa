/// A parsed geotrigger message expression, ready to be evaluated for each notification.
///
/// ## The documented subset of Arcade for geotrigger message expressions (seed 003)
///
/// A message expression turns a fence notification into a message, as ArcGIS's geotrigger
/// `messageExpression` does: `"You have " + $fencenotificationtype + " " + $fencefeature.area_name`.
/// This is a subset of Arcade, pure and bounded:
///
/// Program     `var name = expr;` declarations, bare expressions and a final `return expr;`, separated by
///             `;` or new lines. The result is the `return`'s value, or the last expression's.
///             `//` and `/* */` comments.
/// Values      null, Boolean, Number (a double), Text, Date (from `Now()`), Dictionary (keys keep their
///             order) and Array.
/// Literals    `12`, `3.5`, `1e3`; `'text'` and `"text"` with escapes `\n \t \r \b \f \\ \' \" \` \$ \/
///             \uXXXX`; `true`, `false`, `null` (keywords ignore case); template literals
///             `` `Hi ${name}` ``; arrays `[1, "a"]`; dictionaries `{"message": "…", actions: […]}`
///             with text or bare-name keys.
/// Operators   loosest first: `||`, `&&`, `== !=`, `< <= > >=`, `+ -`, `* / %`, then prefix `! - +`,
///             then `a.b` and `a["b"]` / `a[0]` (a negative index counts from the end).
///             `+` concatenates when either side is Text (numbers without `.0`, null as empty, arrays
///             and dictionaries as JSON) and adds otherwise. `- * / %` convert to numbers (null 0,
///             booleans 0/1, text parsed or NaN); x/0 is Infinity. `==` needs the same type and value
///             (`1 == "1"` is false). `<` compares texts as texts, dates as dates, all else as numbers.
///             `&&`, `||`, `!` and conditions need Booleans, and `&&`/`||` short-circuit.
/// Profile     `$fencenotificationtype` ("entered" or "exited"), `$fencefeature` and `$feedfeature`
///             (dictionaries of attributes from the caller). Attribute names fall back to ignoring case.
///             A missing attribute is an error naming it and listing those there are.
/// Functions   names ignore case; arities are checked when parsing.
///             `IIf(condition, ifTrue, ifFalse)`, `When(c1, v1, …, default)`,
///             `Decode(value, match1, result1, …, default)` (matches with `==`) — each evaluates only
///             the branch it picks; `DefaultValue(value, default)` — default when value is null or
///             empty text, or a member chain that does not exist (`DefaultValue($feedfeature.x.y, 0)`);
///             `Upper(text)`, `Lower(text)`; `Round(number, places = 0)` half away from zero;
///             `Text(value)` and `Text(number, format)` with `# 0 , .` patterns (`"#,##0.00"`, see
///             `NumberFormat`); `Now()` from the caller's clock; `Concatenate(values, separator,
///             format)`.
/// Not here    loops, functions of one's own, assignment without `var`, `if`, geometry functions,
///             date formats, `$map` / `$datastore`, and any other profile variable or function.
/// Limits      (`ExpressionLimits`) the source's length, nesting depth (parentheses, calls, arrays,
///             prefix operators, member chains), evaluation steps (each node evaluated, each value
///             held in a built array or dictionary), and the length of any text built. Exceeding one
///             is an `ExpressionError`, never a hang or a crash.
/// Result      Text becomes the message; a dictionary gives `message` (converted to text), `actions`
///             (an array of texts) and any other keys as message properties. Anything else is an error.
public struct MessageExpression: Sendable, Hashable {
    /// The expression as written.
    public let source: String
    /// The bounds applied when parsing and evaluating.
    public let limits: ExpressionLimits
    let statements: [ExpressionStatement]

    /// Parses `source`, checking names, arities and nesting; errors name the line and column.
    public init(_ source: String, limits: ExpressionLimits = .standard) throws(ExpressionError) {
        guard source.utf8.count <= limits.maximumSourceLength else {
            throw ExpressionError(
                .tooComplex, at: SourcePosition(line: 1, column: 1),
                "expression longer than \(limits.maximumSourceLength) bytes")
        }
        self.source = source
        self.limits = limits
        var parser = Parser(
            tokens: try Lexer.tokens(of: source, maximumDepth: limits.maximumDepth), maximumDepth: limits.maximumDepth)
        statements = try parser.statements()
    }

    /// The expression's value for one notification.
    public func value(for context: GeotriggerContext) throws(ExpressionError) -> ArcadeValue {
        var evaluator = Evaluator(context: context, limits: limits)
        return try evaluator.run(statements)
    }

    /// The notification's message, actions and message properties.
    public func message(for context: GeotriggerContext) throws(ExpressionError) -> GeotriggerMessage {
        try GeotriggerMessage(try value(for: context), maximumTextLength: limits.maximumTextLength)
    }
}

/// The bounds on an expression, so that a hostile one cannot hang or crash the rules engine.
public struct ExpressionLimits: Sendable, Hashable {
    /// The longest source accepted, in UTF-8 bytes.
    public var maximumSourceLength: Int
    /// The deepest nesting of parentheses, calls, arrays, dictionaries, prefix operators and members.
    public var maximumDepth: Int
    /// Node evaluations plus values held in built arrays and dictionaries.
    public var maximumSteps: Int
    /// The longest text any operation may build, in UTF-8 bytes.
    public var maximumTextLength: Int

    /// 64 KiB of source, 48 levels, 10,000 steps, 64 KiB of text.
    public static let standard = ExpressionLimits(
        maximumSourceLength: 65_536, maximumDepth: 48, maximumSteps: 10_000, maximumTextLength: 65_536)
}
