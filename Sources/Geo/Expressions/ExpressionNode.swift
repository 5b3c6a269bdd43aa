/// A node of the syntax tree, with where it starts in the source.
struct ExpressionNode: Sendable, Hashable {
    let kind: Kind
    let position: SourcePosition

    indirect enum Kind: Sendable, Hashable {
        case literal(ArcadeValue)
        case template([TemplatePiece])
        /// A declared variable, by its lowercased name.
        case variable(String)
        case profile(ProfileVariable)
        case member(ExpressionNode, String)
        case index(ExpressionNode, ExpressionNode)
        case call(ArcadeFunction, [ExpressionNode])
        case unary(UnaryOperator, ExpressionNode)
        /// A left-associative run of operators of one precedence, kept flat so that long
        /// concatenations do not make a deep tree.
        case chain(ExpressionNode, [Link])
        case array([ExpressionNode])
        case dictionary([Entry])
    }

    enum TemplatePiece: Sendable, Hashable {
        case text(String)
        case expression(ExpressionNode)
    }

    struct Link: Sendable, Hashable {
        let binary: BinaryOperator
        let operand: ExpressionNode
        let position: SourcePosition
    }

    struct Entry: Sendable, Hashable {
        let key: String
        let value: ExpressionNode
    }

    /// A short name for the value the node reads, for "… has no attribute" messages.
    var path: String {
        switch kind {
        case .profile(let variable): "$\(variable.rawValue)"
        case .variable(let name): name
        case .member(let base, let key): "\(base.path).\(key)"
        case .index(let base, let key):
            if case .literal(let value) = key.kind { "\(base.path)[\(value.textValue)]" } else { "\(base.path)[…]" }
        default: "the value"
        }
    }
}

/// A statement of an expression: a `var` declaration, a `return`, or a bare expression.
enum ExpressionStatement: Sendable, Hashable {
    case declare(String, ExpressionNode)
    case expression(ExpressionNode)
    case `return`(ExpressionNode)
}

/// The profile variables of the Geotrigger Notification profile.
enum ProfileVariable: String, Sendable, Hashable, CaseIterable {
    case fencenotificationtype, fencefeature, feedfeature
}

enum UnaryOperator: String, Sendable, Hashable {
    case not = "!"
    case negate = "-"
    case plus = "+"
}

enum BinaryOperator: String, Sendable, Hashable {
    case or = "||"
    case and = "&&"
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
}

/// The functions of the subset, with how many arguments each takes.
enum ArcadeFunction: String, Sendable, Hashable, CaseIterable {
    case concatenate = "Concatenate"
    case decode = "Decode"
    case defaultValue = "DefaultValue"
    case iif = "IIf"
    case lower = "Lower"
    case now = "Now"
    case round = "Round"
    case text = "Text"
    case upper = "Upper"
    case when = "When"

    /// The function named `name`, ignoring case as Arcade does.
    init?(named name: String) {
        guard let function = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = function
    }

    /// Whether `count` arguments fit; otherwise what would, in words.
    func accepts(_ count: Int) -> String? {
        switch self {
        case .concatenate: count >= 1 && count <= 3 ? nil : "1 to 3 arguments (values or an array, separator, format)"
        case .decode: count >= 2 && count % 2 == 0 ? nil : "a value, match/result pairs and a default (an even count)"
        case .defaultValue: count == 2 ? nil : "2 arguments (value, default)"
        case .iif: count == 3 ? nil : "3 arguments (condition, value if true, value if false)"
        case .lower, .upper: count == 1 ? nil : "1 argument (text)"
        case .now: count == 0 ? nil : "no arguments"
        case .round: count == 1 || count == 2 ? nil : "1 or 2 arguments (number, places)"
        case .text: count == 1 || count == 2 ? nil : "1 or 2 arguments (value, format)"
        case .when:
            count >= 3 && count % 2 == 1 ? nil : "condition/value pairs and a default (an odd count, at least 3)"
        }
    }
}
