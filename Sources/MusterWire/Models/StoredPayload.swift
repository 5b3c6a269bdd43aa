/// What storing a named payload did.
public struct StoredPayload: Sendable, Hashable, Codable {
    /// The payload's name.
    public var name: String
    /// Whether the name held a payload already (now replaced); nil when the server did not say.
    public var replaced: Bool?
    /// What the app will ignore in the payload (a field type it does not know, seed 000), one line each; nil (left
    /// out) when nothing.
    public var warnings: [String]?

    /// Creates a result from its parts.
    public init(name: String, replaced: Bool? = nil, warnings: [String]? = nil) {
        self.name = name
        self.replaced = replaced
        self.warnings = warnings
    }
}
