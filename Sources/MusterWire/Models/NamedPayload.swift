/// A payload stored under a name (the seed's ArsRCSPayload), as a list of them shows it (`GET /api/v1/payloads`,
/// `muster payloads list`).
public struct NamedPayload: Sendable, Hashable, Codable {
    /// The payload's name: what a send's `payloadName` refers to.
    public var name: String
    /// The payload, as stored.
    public var payload: JSONValue

    /// Creates an entry from its parts.
    public init(name: String, payload: JSONValue) {
        self.name = name
        self.payload = payload
    }
}
