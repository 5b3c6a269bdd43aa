/// Splits an expression's source into tokens, tracking line and column; template literals carry
/// the tokens of each `${…}` inside them.
struct Lexer {
    private let characters: [Character]
    private var index = 0
    private var line = 1
    private var column = 1
    private let maximumDepth: Int
    private var templateDepth = 0

    init(_ source: String, maximumDepth: Int) {
        characters = Array(source)
        self.maximumDepth = maximumDepth
    }

    /// All tokens of the source, ending in `.end`; template literals nest at most `maximumDepth` deep.
    static func tokens(of source: String, maximumDepth: Int) throws(ExpressionError) -> [Token] {
        var lexer = Lexer(source, maximumDepth: maximumDepth)
        return try lexer.tokens(insideTemplate: false)
    }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }
    private var current: Character? { index < characters.count ? characters[index] : nil }
    private func peek(_ offset: Int = 1) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func advance() {
        guard let character = current else { return }
        index += 1
        if character.isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    /// Tokens up to the end of the source, or inside a template up to the `}` that closes `${`.
    private mutating func tokens(insideTemplate: Bool) throws(ExpressionError) -> [Token] {
        var tokens: [Token] = []
        var braces = 0
        while true {
            try skipSpaceAndComments()
            let start = position
            guard let character = current else {
                if insideTemplate {
                    throw ExpressionError(
                        .syntax, at: start,
                        "expected '}' to close '${' in the template literal, found end of expression")
                }
                tokens.append(Token(kind: .end, position: start))
                return tokens
            }
            if insideTemplate && character == "}" && braces == 0 {
                advance()
                tokens.append(Token(kind: .templateEnd, position: start))
                return tokens
            }
            if character == "{" { braces += 1 }
            if character == "}" { braces -= 1 }
            tokens.append(Token(kind: try token(startingWith: character), position: start))
        }
    }

    private mutating func token(startingWith character: Character) throws(ExpressionError) -> Token.Kind {
        let start = position
        if character.isNumber && character.isASCII || character == "." && (peek()?.isASCIIDigit ?? false) {
            return .number(number())
        }
        if character == "\"" || character == "'" { return .text(try text(closedBy: character)) }
        if character == "`" { return .template(try template()) }
        if character.isIdentifierStart { return .identifier(identifier()) }
        if character == "$" {
            advance()
            guard let next = current, next.isIdentifierStart else {
                throw ExpressionError(
                    .syntax, at: start, "expected a profile variable name after '$', found \(describe(current))")
            }
            return .profile(identifier())
        }
        for symbol in ["==", "!=", "<=", ">=", "&&", "||"] where character == symbol.first && peek() == symbol.last {
            advance()
            advance()
            return .symbol(symbol)
        }
        if "()[]{},:;.+-*/%!=<>".contains(character) {
            advance()
            return .symbol(String(character))
        }
        throw ExpressionError(
            .syntax, at: start, "expected an expression, found unexpected character \(describe(character))")
    }

    private mutating func skipSpaceAndComments() throws(ExpressionError) {
        while let character = current {
            if character.isWhitespace {
                advance()
            } else if character == "/" && peek() == "/" {
                while let next = current, !next.isNewline { advance() }
            } else if character == "/" && peek() == "*" {
                let start = position
                advance()
                advance()
                while current != nil && !(current == "*" && peek() == "/") { advance() }
                guard current != nil else {
                    throw ExpressionError(
                        .syntax, at: start, "expected '*/' to close the comment, found end of expression")
                }
                advance()
                advance()
            } else {
                return
            }
        }
    }

    private mutating func number() -> Double {
        var digits = ""
        while let character = current, character.isASCIIDigit || character == "." && !digits.contains(".") {
            digits.append(character)
            advance()
        }
        if let e = current, e == "e" || e == "E" {
            let sign = peek() == "+" || peek() == "-"
            if let next = peek(sign ? 2 : 1), next.isASCIIDigit {
                digits.append("e")
                advance()
                if sign, let signCharacter = current {
                    digits.append(signCharacter)
                    advance()
                }
                while let character = current, character.isASCIIDigit {
                    digits.append(character)
                    advance()
                }
            }
        }
        return Double(digits) ?? .nan
    }

    private mutating func identifier() -> String {
        var name = ""
        while let character = current, character.isIdentifierStart || character.isASCIIDigit {
            name.append(character)
            advance()
        }
        return name
    }

    private mutating func text(closedBy quote: Character) throws(ExpressionError) -> String {
        let start = position
        advance()
        var text = ""
        while let character = current, character != quote {
            if character == "\\" {
                text.append(try escape())
            } else {
                text.append(character)
                advance()
            }
        }
        guard current == quote else {
            throw ExpressionError(
                .syntax, at: start, "expected \(quote) to close the text that starts here, found end of expression")
        }
        advance()
        return text
    }

    private mutating func template() throws(ExpressionError) -> [Token.TemplatePart] {
        let start = position
        templateDepth += 1
        defer { templateDepth -= 1 }
        guard templateDepth <= maximumDepth else {
            throw ExpressionError(.tooComplex, at: start, "template literals nested deeper than \(maximumDepth) levels")
        }
        advance()
        var parts: [Token.TemplatePart] = []
        var text = ""
        while let character = current, character != "`" {
            if character == "\\" {
                text.append(try escape())
            } else if character == "$" && peek() == "{" {
                advance()
                advance()
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                parts.append(.tokens(try tokens(insideTemplate: true)))
            } else {
                text.append(character)
                advance()
            }
        }
        guard current == "`" else {
            throw ExpressionError(
                .syntax, at: start, "expected ` to close the template literal that starts here, found end of expression"
            )
        }
        advance()
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
    }

    /// One escape sequence after a backslash: `\n \t \r \b \f \\ \' \" \` \$ \/` and `\uXXXX`.
    private mutating func escape() throws(ExpressionError) -> Character {
        let start = position
        advance()
        guard let character = current else {
            throw ExpressionError(
                .syntax, at: start, "expected an escaped character after '\\', found end of expression")
        }
        advance()
        switch character {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{8}"
        case "f": return "\u{c}"
        case "\\", "'", "\"", "`", "$", "/": return character
        case "u":
            var hex = ""
            while hex.count < 4, let digit = current, digit.isHexDigit {
                hex.append(digit)
                advance()
            }
            guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw ExpressionError(
                    .syntax, at: start, "expected four hex digits after '\\u', found \(describe(current))")
            }
            return Character(scalar)
        default:
            throw ExpressionError(
                .syntax, at: start, "expected one of n t r b f \\ ' \" ` $ / u after '\\', found \(describe(character))"
            )
        }
    }

    private func describe(_ character: Character?) -> String {
        guard let character else { return "end of expression" }
        return character.isNewline ? "end of line" : "'\(character)'"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isIdentifierStart: Bool { isLetter || self == "_" }
}
