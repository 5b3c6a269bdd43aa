import Foundation

/// Walks the syntax tree with a step budget and a text-length limit; recursion is bounded by the
/// parser's nesting limit, and there are no loops, so evaluation always ends.
struct Evaluator {
    let context: GeotriggerContext
    let limits: ExpressionLimits
    private(set) var steps = 0
    private var variables: [String: ArcadeValue] = [:]

    init(context: GeotriggerContext, limits: ExpressionLimits) {
        self.context = context
        self.limits = limits
    }

    /// Runs the statements; the result is the `return`'s value, or else the last expression's.
    mutating func run(_ statements: [ExpressionStatement]) throws(ExpressionError) -> ArcadeValue {
        var result = ArcadeValue.null
        for statement in statements {
            switch statement {
            case .declare(let name, let node): variables[name] = try evaluate(node)
            case .expression(let node): result = try evaluate(node)
            case .return(let node): return try evaluate(node)
            }
        }
        return result
    }

    mutating func charge(_ count: Int, at position: SourcePosition) throws(ExpressionError) {
        steps += count
        guard steps <= limits.maximumSteps else {
            throw ExpressionError(.budgetExceeded, at: position, "evaluation exceeded \(limits.maximumSteps) steps")
        }
    }

    /// `text`, unless it is longer than the limit.
    func bounded(_ text: String, at position: SourcePosition) throws(ExpressionError) -> ArcadeValue {
        guard text.utf8.count <= limits.maximumTextLength else {
            throw ExpressionError(
                .budgetExceeded, at: position, "text longer than \(limits.maximumTextLength) bytes")
        }
        return .text(text)
    }

    /// The text of `value`, refusing values whose text would exceed the limit.
    func text(of value: ArcadeValue, at position: SourcePosition) throws(ExpressionError) -> String {
        guard let text = value.text(limit: limits.maximumTextLength) else {
            throw ExpressionError(
                .budgetExceeded, at: position, "text longer than \(limits.maximumTextLength) bytes")
        }
        return text
    }

    mutating func evaluate(_ node: ExpressionNode) throws(ExpressionError) -> ArcadeValue {
        try charge(1, at: node.position)
        switch node.kind {
        case .literal(let value): return value
        case .variable(let name): return variables[name] ?? .null
        case .profile(let variable):
            switch variable {
            case .fencenotificationtype: return .text(context.notificationType.rawValue)
            case .fencefeature: return .dictionary(context.fenceFeature)
            case .feedfeature: return .dictionary(context.feedFeature)
            }
        case .template(let pieces):
            var out = ""
            for piece in pieces {
                switch piece {
                case .text(let text): out += text
                case .expression(let inner): out += try text(of: try evaluate(inner), at: inner.position)
                }
                guard out.utf8.count <= limits.maximumTextLength else { return try bounded(out, at: node.position) }
            }
            return .text(out)
        case .member(let base, let key):
            return try member(try evaluate(base), key, of: base, at: node.position, lenient: false)
        case .index(let base, let key):
            return try index(try evaluate(base), try evaluate(key), of: base, at: node.position, lenient: false)
        case .call(let function, let arguments): return try call(function, arguments, at: node.position)
        case .unary(let unary, let operand):
            let value = try evaluate(operand)
            switch unary {
            case .not: return .boolean(!(try boolean(value, for: "!", at: node.position)))
            case .negate: return .number(-value.numberValue)
            case .plus: return .number(value.numberValue)
            }
        case .chain(let first, let links): return try chain(first, links)
        case .array(let elements):
            var values: [ArcadeValue] = []
            for element in elements { values.append(try evaluate(element)) }
            let value = ArcadeValue.array(values)
            try charge(value.weight(limit: limits.maximumSteps), at: node.position)
            return value
        case .dictionary(let entries):
            var dictionary = ArcadeDictionary()
            for entry in entries { dictionary[entry.key] = try evaluate(entry.value) }
            let value = ArcadeValue.dictionary(dictionary)
            try charge(value.weight(limit: limits.maximumSteps), at: node.position)
            return value
        }
    }

    /// Like `evaluate`, but a member or index that does not exist (or is read from null) is null:
    /// how `DefaultValue` reads its first argument.
    mutating func evaluateLeniently(_ node: ExpressionNode) throws(ExpressionError) -> ArcadeValue {
        switch node.kind {
        case .member(let base, let key):
            try charge(1, at: node.position)
            return try member(try evaluateLeniently(base), key, of: base, at: node.position, lenient: true)
        case .index(let base, let key):
            try charge(1, at: node.position)
            let container = try evaluateLeniently(base)
            return try index(container, try evaluate(key), of: base, at: node.position, lenient: true)
        default:
            return try evaluate(node)
        }
    }

    private func member(
        _ container: ArcadeValue, _ key: String, of base: ExpressionNode, at position: SourcePosition, lenient: Bool
    ) throws(ExpressionError) -> ArcadeValue {
        if case .dictionary(let dictionary) = container {
            if let value = dictionary[key] { return value }
            if lenient { return .null }
            let keys = dictionary.keys.isEmpty ? "it has none" : "it has: " + dictionary.keys.joined(separator: ", ")
            throw ExpressionError(.missingAttribute, at: position, "\(base.path) has no attribute '\(key)'; \(keys)")
        }
        if lenient, container == .null { return .null }
        throw ExpressionError(
            .typeMismatch, at: position,
            "expected a dictionary to read '\(key)' from, found \(container.typeName) in \(base.path)")
    }

    private func index(
        _ container: ArcadeValue, _ key: ArcadeValue, of base: ExpressionNode, at position: SourcePosition,
        lenient: Bool
    ) throws(ExpressionError) -> ArcadeValue {
        switch (container, key) {
        case (.dictionary, .text(let name)):
            return try member(container, name, of: base, at: position, lenient: lenient)
        case (.array(let elements), .number(let number)) where number == number.rounded() && abs(number) < 1e15:
            let offset = Int(number) < 0 ? elements.count + Int(number) : Int(number)
            if elements.indices.contains(offset) { return elements[offset] }
            if lenient { return .null }
            throw ExpressionError(
                .missingAttribute, at: position,
                "index \(Int(number)) is outside \(base.path), which has \(elements.count) elements")
        case (.null, _) where lenient: return .null
        default:
            throw ExpressionError(
                .typeMismatch, at: position,
                "expected a dictionary with a text key or an array with a whole-number index, found \(container.typeName)[\(key.typeName)]"
            )
        }
    }

    func boolean(_ value: ArcadeValue, for what: String, at position: SourcePosition) throws(ExpressionError) -> Bool {
        guard case .boolean(let flag) = value else {
            throw ExpressionError(
                .typeMismatch, at: position, "expected a Boolean for \(what), found \(value.typeName)")
        }
        return flag
    }
}
