/// What storing a named payload did.
public struct StoredPayload: Sendable, Hashable, Codable {
    /// The payload's name.
    public var name: String
    /// Whether the name held a payload already (now replaced); nil when the server did not say.
    public var replaced: Bool?

    /// Creates a result from its parts.
    public init(name: String, replaced: Bool? = nil) {
        self.name = name
        self.replaced = replaced
    }
}
