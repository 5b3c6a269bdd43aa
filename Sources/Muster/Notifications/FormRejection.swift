import Forms

/// A payload or response refused by the form rules of seed 000: every problem, each naming its field.
public struct FormRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem in the contract's error shape.
    public struct Problem: Sendable, Hashable, Encodable {
        /// The field id for a response value (`values.cb` → `cb`), else the path (`payload.fields[0]`).
        public var field: String
        public var message: String
    }

    /// What was refused: "payload" or "response".
    public var subject: String
    /// The problems, as Forms reported them.
    public var errors: [FormError]

    public init(subject: String, errors: [FormError]) {
        self.subject = subject
        self.errors = errors
    }

    /// The problems as `{field, message}`.
    public var problems: [Problem] {
        errors.map { error in
            let field = error.path.hasPrefix("values.") ? String(error.path.dropFirst("values.".count)) : error.path
            return Problem(field: field, message: "\(error.message) [\(error.rule)]")
        }
    }

    /// One line: what was refused and every problem.
    public var description: String {
        "\(subject) refused: " + errors.map(\.description).joined(separator: "; ")
    }
}
