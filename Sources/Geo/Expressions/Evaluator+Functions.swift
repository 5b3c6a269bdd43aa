import Foundation

extension Evaluator {
    /// Calls one of the subset's functions; `IIf`, `When` and `Decode` evaluate only the branch they pick.
    mutating func call(_ function: ArcadeFunction, _ arguments: [ExpressionNode], at position: SourcePosition)
        throws(ExpressionError) -> ArcadeValue
    {
        switch function {
        case .iif:
            let condition = try boolean(
                try evaluate(arguments[0]), for: "the condition of IIf", at: arguments[0].position)
            return try evaluate(arguments[condition ? 1 : 2])
        case .when:
            for pair in stride(from: 0, to: arguments.count - 1, by: 2) {
                let condition = try evaluate(arguments[pair])
                if try boolean(condition, for: "a condition of When", at: arguments[pair].position) {
                    return try evaluate(arguments[pair + 1])
                }
            }
            return try evaluate(arguments[arguments.count - 1])
        case .decode:
            let value = try evaluate(arguments[0])
            for pair in stride(from: 1, to: arguments.count - 1, by: 2) where try evaluate(arguments[pair]) == value {
                return try evaluate(arguments[pair + 1])
            }
            return try evaluate(arguments[arguments.count - 1])
        case .defaultValue:
            let value = try evaluateLeniently(arguments[0])
            if value == .null || value == .text("") { return try evaluate(arguments[1]) }
            return value
        case .upper, .lower:
            let value = try evaluate(arguments[0])
            let text = try text(of: value, at: arguments[0].position)
            return try bounded(function == .upper ? text.uppercased() : text.lowercased(), at: position)
        case .now:
            return .date(context.now)
        case .round:
            let number = try evaluate(arguments[0]).numberValue
            let places = arguments.count > 1 ? try evaluate(arguments[1]).numberValue : 0
            guard places == places.rounded(), (-15...15).contains(places) else {
                throw ExpressionError(
                    .typeMismatch, at: arguments[1].position,
                    "expected a whole number of places from -15 to 15 for Round, found \(ArcadeValue.text(of: places))")
            }
            return .number(NumberFormat.round(number, places: Int(places)))
        case .text:
            let value = try evaluate(arguments[0])
            guard arguments.count > 1 else { return try bounded(text(of: value, at: position), at: position) }
            let pattern = try evaluate(arguments[1])
            guard case .text(let format) = pattern, let numberFormat = NumberFormat(format) else {
                throw ExpressionError(
                    .typeMismatch, at: arguments[1].position,
                    "expected a number format of # 0 , . (such as \"#,##0.00\"), found \(pattern.preview)"
                )
            }
            return try bounded(numberFormat.format(value.numberValue), at: position)
        case .concatenate:
            return try concatenate(arguments, at: position)
        }
    }

    /// `Concatenate(values, separator, format)`: an array's elements (or one value), joined.
    private mutating func concatenate(_ arguments: [ExpressionNode], at position: SourcePosition)
        throws(ExpressionError) -> ArcadeValue
    {
        let first = try evaluate(arguments[0])
        let separator = arguments.count > 1 ? try text(of: try evaluate(arguments[1]), at: position) : ""
        var format: NumberFormat?
        if arguments.count > 2 {
            let pattern = try evaluate(arguments[2])
            guard case .text(let text) = pattern, let parsed = NumberFormat(text) else {
                throw ExpressionError(
                    .typeMismatch, at: arguments[2].position,
                    "expected a number format of # 0 , . for Concatenate, found \(pattern.preview)")
            }
            format = parsed
        }
        let values: [ArcadeValue] = if case .array(let elements) = first { elements } else { [first] }
        var out = ""
        for (offset, value) in values.enumerated() {
            if offset > 0 { out += separator }
            if let format, case .number(let number) = value {
                out += format.format(number)
            } else {
                out += try text(of: value, at: position)
            }
            guard out.utf8.count <= limits.maximumTextLength else { return try bounded(out, at: position) }
        }
        return .text(out)
    }
}
