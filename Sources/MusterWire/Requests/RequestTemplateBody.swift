/// The body of `PUT /requests/{name}`: a request template without its name, which the path gives.
public struct RequestTemplateBody: Sendable, Hashable, Codable {
    /// The title shown in the list.
    public var title: String
    /// The body (subtitle) shown in the list.
    public var body: String
    /// The topic the response is published on.
    public var responseTopic: String
    /// The form payload of seed 000.
    public var payload: JSONValue

    /// The parts of `template` that go in the body.
    public init(_ template: RequestTemplate) {
        title = template.title
        body = template.body
        responseTopic = template.responseTopic
        payload = template.payload
    }
}
