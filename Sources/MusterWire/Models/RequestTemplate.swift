/// A user-initiated request (the seed's ArsRCSRequest): a form the user can start from the app's "Start" list.
public struct RequestTemplate: Sendable, Hashable, Codable {
    /// The request's unique name; ``MusterClient/respond(toRequest:deviceId:deviceName:submitValue:values:location:)``
    /// takes it.
    public var name: String
    /// The title shown in the list.
    public var title: String
    /// The body (subtitle) shown in the list.
    public var body: String
    /// The topic the response is published on.
    public var responseTopic: String
    /// The form payload of seed 000.
    public var payload: JSONValue
    /// In the answer of a put only: what the app will ignore in the payload (an unknown field type), one line each;
    /// left out when nothing.
    public var warnings: [String]?

    /// Creates a request template from its parts.
    public init(
        name: String, title: String, body: String, responseTopic: String, payload: JSONValue, warnings: [String]? = nil
    ) {
        self.name = name
        self.title = title
        self.body = body
        self.responseTopic = responseTopic
        self.payload = payload
        self.warnings = warnings
    }
}
