import MusterWire

/// One entry of a dialog's `Options`: a label and the object the app publishes when it is picked.
public struct DialogOption: Sendable, Hashable, Codable {
    /// What the user sees.
    public var label: String
    /// Where the reply goes; absent means the device's `PublishTopic`.
    public var topic: String?
    /// The members the reply carries on its first level, the input fields' values added beside them.
    public var replyObject: [String: JSONValue]?

    /// Creates an option.
    public init(label: String, topic: String? = nil, replyObject: [String: JSONValue]? = nil) {
        self.label = label
        self.topic = topic
        self.replyObject = replyObject
    }

    private enum CodingKeys: String, CodingKey {
        case label = "Label"
        case topic = "Topic"
        case replyObject = "ReplyObject"
    }
}
