extension Evaluator {
    /// A left-to-right run of one precedence; `&&` and `||` stop as soon as the result is known.
    mutating func chain(_ first: ExpressionNode, _ links: [ExpressionNode.Link]) throws(ExpressionError)
        -> ArcadeValue
    {
        var value = try evaluate(first)
        for link in links {
            switch link.binary {
            case .and, .or:
                let left = try boolean(value, for: "'\(link.binary.rawValue)'", at: link.position)
                if left == (link.binary == .or) { return .boolean(left) }
                value = .boolean(
                    try boolean(try evaluate(link.operand), for: "'\(link.binary.rawValue)'", at: link.position))
            default:
                value = try apply(link.binary, value, try evaluate(link.operand), at: link.position)
            }
        }
        return value
    }

    /// Arcade's rules: `==` compares type and value; `<` compares texts as texts, dates as dates and
    /// everything else as numbers; `+` concatenates when either side is text and adds otherwise.
    func apply(_ binary: BinaryOperator, _ left: ArcadeValue, _ right: ArcadeValue, at position: SourcePosition)
        throws(ExpressionError) -> ArcadeValue
    {
        switch binary {
        case .equal: return .boolean(left == right)
        case .notEqual: return .boolean(left != right)
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return .boolean(compare(binary, left, right))
        case .add:
            if case .text = left {
                return try bounded(text(of: left, at: position) + text(of: right, at: position), at: position)
            }
            if case .text = right {
                return try bounded(text(of: left, at: position) + text(of: right, at: position), at: position)
            }
            fallthrough
        default:
            for side in [left, right] {
                switch side {
                case .array, .dictionary:
                    throw ExpressionError(
                        .typeMismatch, at: position,
                        "expected numbers for '\(binary.rawValue)', found \(left.typeName) and \(right.typeName)")
                default: break
                }
            }
            let (x, y) = (left.numberValue, right.numberValue)
            switch binary {
            case .add: return .number(x + y)
            case .subtract: return .number(x - y)
            case .multiply: return .number(x * y)
            case .divide: return .number(x / y)
            default: return .number(x.truncatingRemainder(dividingBy: y))
            }
        }
    }

    private func compare(_ binary: BinaryOperator, _ left: ArcadeValue, _ right: ArcadeValue) -> Bool {
        func holds<T: Comparable>(_ x: T, _ y: T) -> Bool {
            switch binary {
            case .less: x < y
            case .lessOrEqual: x <= y
            case .greater: x > y
            default: x >= y
            }
        }
        switch (left, right) {
        case (.text(let x), .text(let y)): return holds(x, y)
        case (.date(let x), .date(let y)): return holds(x, y)
        default: return holds(left.numberValue, right.numberValue)
        }
    }
}
