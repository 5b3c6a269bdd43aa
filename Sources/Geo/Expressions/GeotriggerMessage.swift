/// A notification's message, actions and message properties, from a message expression's result.
public struct GeotriggerMessage: Sendable, Hashable {
    /// The text to show the user.
    public var message: String
    /// The actions the app is asked to take, from the dictionary's `actions`.
    public var actions: [String]
    /// The dictionary's other keys.
    public var properties: [String: ArcadeValue]

    /// Creates a message.
    public init(message: String, actions: [String] = [], properties: [String: ArcadeValue] = [:]) {
        self.message = message
        self.actions = actions
        self.properties = properties
    }

    /// Reads an expression's result: text is the message; a dictionary's `message` is converted to
    /// text (missing is empty), its `actions` must be an array of texts (missing or null is none).
    public init(_ result: ArcadeValue) throws(ExpressionError) {
        try self.init(result, maximumTextLength: ExpressionLimits.standard.maximumTextLength)
    }

    /// Reads a result, refusing a message whose text would be longer than `maximumTextLength` bytes.
    init(_ result: ArcadeValue, maximumTextLength: Int) throws(ExpressionError) {
        let start = SourcePosition(line: 1, column: 1)
        switch result {
        case .text(let text):
            self.init(message: text)
        case .dictionary(let dictionary):
            var actions: [String] = []
            var properties: [String: ArcadeValue] = [:]
            for entry in dictionary.entries where entry.key != "message" && entry.key != "actions" {
                properties[entry.key] = entry.value
            }
            for entry in dictionary.entries where entry.key == "actions" {
                switch entry.value {
                case .null: break
                case .array(let elements):
                    for (offset, element) in elements.enumerated() {
                        guard case .text(let action) = element else {
                            throw ExpressionError(
                                .badResult, at: start,
                                "expected the actions to be texts, found \(element.typeName) at index \(offset)")
                        }
                        actions.append(action)
                    }
                default:
                    throw ExpressionError(
                        .badResult, at: start, "expected actions to be an array of texts, found \(entry.value.typeName)"
                    )
                }
            }
            let value = dictionary.entries.first { $0.key == "message" }?.value ?? .null
            guard let message = value.text(limit: maximumTextLength) else {
                throw ExpressionError(.badResult, at: start, "expected a message of at most \(maximumTextLength) bytes")
            }
            self.init(message: message, actions: actions, properties: properties)
        default:
            throw ExpressionError(
                .badResult, at: start,
                "expected the expression to return Text or a Dictionary, found \(result.typeName)")
        }
    }
}
