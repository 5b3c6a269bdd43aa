/// Recursive descent from tokens to statements; checks names, arities and nesting as it goes so
/// that evaluation only meets errors that depend on the data.
struct Parser {
    private let tokens: [Token]
    private var index = 0
    private(set) var depth = 0
    let maximumDepth: Int
    /// Variables declared so far, lowercased; passed on to the parsers of template parts.
    private(set) var declaredNames: [String]

    /// A parser of `tokens`; a template part's parser starts at the `depth` of the template.
    init(tokens: [Token], maximumDepth: Int, declared: [String] = [], depth: Int = 0) {
        self.tokens = tokens
        self.maximumDepth = maximumDepth
        self.declaredNames = declared
        self.depth = depth
    }

    var current: Token { tokens[index] }
    private var previous: Token { tokens[max(index - 1, 0)] }
    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    func failure(_ expected: String, _ code: ExpressionError.Code = .syntax) -> ExpressionError {
        ExpressionError(code, at: current.position, "expected \(expected), found \(current.found)")
    }

    mutating func expectSymbol(_ symbol: String, _ what: String) throws(ExpressionError) {
        guard current.isSymbol(symbol) else { throw failure("'\(symbol)' \(what)") }
        advance()
    }

    /// Whether the parser stands on the `}` that closes a template literal's `${`.
    var atTemplateEnd: Bool { current.kind == .templateEnd }

    // MARK: Statements

    /// `statement (';' | newline) …` where a statement is `var name = expr`, `return expr` or `expr`;
    /// a `return` must come last.
    mutating func statements() throws(ExpressionError) -> [ExpressionStatement] {
        var statements: [ExpressionStatement] = []
        while true {
            while current.isSymbol(";") { advance() }
            if current.isEnd { break }
            if !statements.isEmpty && previous.isSymbol(";") == false && current.position.line == previous.position.line
            {
                throw failure("';' or a new line between statements")
            }
            if current.isKeyword("var") {
                advance()
                guard case .identifier(let name) = current.kind, !Self.keywords.contains(name.lowercased()) else {
                    throw failure("a variable name after 'var'")
                }
                advance()
                try expectSymbol("=", "after the variable name \(name)")
                let value = try expression()
                declaredNames.append(name.lowercased())
                statements.append(.declare(name.lowercased(), value))
            } else if current.isKeyword("return") {
                advance()
                statements.append(.return(try expression()))
                while current.isSymbol(";") { advance() }
                guard current.isEnd else { throw failure("end of expression after the return statement") }
            } else {
                statements.append(.expression(try expression()))
            }
        }
        guard current.kind == .end else { throw failure("end of expression") }
        return statements
    }

    static let keywords: Set<String> = ["true", "false", "null", "var", "return"]

    // MARK: Operators, loosest first

    mutating func expression() throws(ExpressionError) -> ExpressionNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else {
            throw ExpressionError(
                .tooComplex, at: current.position, "expression nested deeper than \(maximumDepth) levels")
        }
        return try chain(0)
    }

    private static let levels: [[BinaryOperator]] = [
        [.or], [.and], [.equal, .notEqual], [.less, .lessOrEqual, .greater, .greaterOrEqual],
        [.add, .subtract], [.multiply, .divide, .remainder],
    ]

    private mutating func chain(_ level: Int) throws(ExpressionError) -> ExpressionNode {
        guard level < Self.levels.count else { return try unary() }
        let first = try chain(level + 1)
        var links: [ExpressionNode.Link] = []
        while case .symbol(let symbol) = current.kind, let binary = BinaryOperator(rawValue: symbol),
            Self.levels[level].contains(binary)
        {
            let position = current.position
            advance()
            links.append(ExpressionNode.Link(binary: binary, operand: try chain(level + 1), position: position))
        }
        return links.isEmpty ? first : ExpressionNode(kind: .chain(first, links), position: first.position)
    }

    private mutating func unary() throws(ExpressionError) -> ExpressionNode {
        guard case .symbol(let symbol) = current.kind, let unary = UnaryOperator(rawValue: symbol) else {
            return try postfix()
        }
        let position = current.position
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else {
            throw ExpressionError(.tooComplex, at: position, "expression nested deeper than \(maximumDepth) levels")
        }
        advance()
        return ExpressionNode(kind: .unary(unary, try self.unary()), position: position)
    }

    private mutating func postfix() throws(ExpressionError) -> ExpressionNode {
        var node = try primary()
        var links = 0
        while current.isSymbol(".") || current.isSymbol("[") {
            links += 1
            guard depth + links <= maximumDepth else {
                throw ExpressionError(
                    .tooComplex, at: current.position, "member chain longer than \(maximumDepth) levels")
            }
            let position = current.position
            if current.isSymbol(".") {
                advance()
                guard case .identifier(let name) = current.kind else { throw failure("an attribute name after '.'") }
                advance()
                node = ExpressionNode(kind: .member(node, name), position: position)
            } else {
                advance()
                let key = try expression()
                try expectSymbol("]", "to close the index")
                node = ExpressionNode(kind: .index(node, key), position: position)
            }
        }
        return node
    }
}
