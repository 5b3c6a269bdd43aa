extension Parser {
    /// Literals, names, calls, parentheses, arrays, dictionaries and template literals.
    mutating func primary() throws(ExpressionError) -> ExpressionNode {
        let token = current
        let position = token.position
        switch token.kind {
        case .number(let number):
            advance()
            return ExpressionNode(kind: .literal(.number(number)), position: position)
        case .text(let text):
            advance()
            return ExpressionNode(kind: .literal(.text(text)), position: position)
        case .template(let parts):
            advance()
            return ExpressionNode(kind: .template(try template(parts)), position: position)
        case .profile(let name):
            guard let variable = ProfileVariable(rawValue: name.lowercased()) else {
                let known = ProfileVariable.allCases.map { "$\($0.rawValue)" }.joined(separator: ", ")
                throw ExpressionError(
                    .unknownVariable, at: position, "unknown profile variable $\(name); available: \(known)")
            }
            advance()
            return ExpressionNode(kind: .profile(variable), position: position)
        case .identifier(let name):
            advance()
            switch name.lowercased() {
            case "true": return ExpressionNode(kind: .literal(.boolean(true)), position: position)
            case "false": return ExpressionNode(kind: .literal(.boolean(false)), position: position)
            case "null": return ExpressionNode(kind: .literal(.null), position: position)
            default: break
            }
            if current.isSymbol("(") { return try call(name, at: position) }
            guard declaredNames.contains(name.lowercased()) else {
                let known =
                    declaredNames.isEmpty ? "none are declared" : "declared: " + declaredNames.joined(separator: ", ")
                throw ExpressionError(.unknownVariable, at: position, "unknown variable '\(name)'; \(known)")
            }
            return ExpressionNode(kind: .variable(name.lowercased()), position: position)
        case .symbol("("):
            advance()
            let inner = try expression()
            try expectSymbol(")", "to close the parenthesis")
            return inner
        case .symbol("["):
            advance()
            var elements: [ExpressionNode] = []
            while !current.isSymbol("]") {
                elements.append(try expression())
                guard current.isSymbol(",") else { break }
                advance()
            }
            try expectSymbol("]", "or ',' after an array element")
            return ExpressionNode(kind: .array(elements), position: position)
        case .symbol("{"):
            advance()
            return ExpressionNode(kind: .dictionary(try entries()), position: position)
        default:
            throw failure("an expression")
        }
    }

    private mutating func call(_ name: String, at position: SourcePosition) throws(ExpressionError) -> ExpressionNode {
        guard let function = ArcadeFunction(named: name) else {
            let known = ArcadeFunction.allCases.map(\.rawValue).joined(separator: ", ")
            throw ExpressionError(.unknownFunction, at: position, "unknown function '\(name)'; available: \(known)")
        }
        advance()
        var arguments: [ExpressionNode] = []
        while !current.isSymbol(")") {
            arguments.append(try expression())
            guard current.isSymbol(",") else { break }
            advance()
        }
        try expectSymbol(")", "after the arguments of \(function.rawValue)")
        if let wanted = function.accepts(arguments.count) {
            throw ExpressionError(
                .unknownFunction, at: position, "\(function.rawValue) takes \(wanted), found \(arguments.count)")
        }
        return ExpressionNode(kind: .call(function, arguments), position: position)
    }

    /// `key: value, …}` where a key is text or a bare name.
    private mutating func entries() throws(ExpressionError) -> [ExpressionNode.Entry] {
        var entries: [ExpressionNode.Entry] = []
        while !current.isSymbol("}") {
            let key: String
            switch current.kind {
            case .text(let text): key = text
            case .identifier(let name): key = name
            default: throw failure("a dictionary key (text or name)")
            }
            advance()
            try expectSymbol(":", "after the dictionary key \"\(key)\"")
            entries.append(ExpressionNode.Entry(key: key, value: try expression()))
            guard current.isSymbol(",") else { break }
            advance()
        }
        try expectSymbol("}", "or ',' after a dictionary entry")
        return entries
    }

    private func template(_ parts: [Token.TemplatePart]) throws(ExpressionError) -> [ExpressionNode.TemplatePiece] {
        var pieces: [ExpressionNode.TemplatePiece] = []
        for part in parts {
            switch part {
            case .text(let text): pieces.append(.text(text))
            case .tokens(let tokens):
                var inner = Parser(tokens: tokens, maximumDepth: maximumDepth, declared: declaredNames, depth: depth)
                let node = try inner.expression()
                guard inner.atTemplateEnd else { throw inner.failure("'}' to close '${' in the template literal") }
                pieces.append(.expression(node))
            }
        }
        return pieces
    }
}
