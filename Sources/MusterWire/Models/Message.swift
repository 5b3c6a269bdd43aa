import Foundation

/// A message as the device shows it: the payload resolved (a named payload expanded and overridden).
public struct Message: Sendable, Hashable, Codable {
    /// The message's id.
    public var messageId: UUID
    /// The notification's title.
    public var title: String
    /// The notification's body (the subtitle).
    public var body: String
    /// When the message was sent.
    public var sentAt: Date
    /// The username of whoever sent it.
    public var sender: String
    /// The source it was sent through, when the sender named one.
    public var source: String?
    /// The form payload of seed 000: `responseTopic`, `fields`, `state`.
    public var payload: JSONValue

    /// Creates a message from its parts.
    public init(
        messageId: UUID, title: String, body: String, sentAt: Date, sender: String, source: String? = nil,
        payload: JSONValue
    ) {
        self.messageId = messageId
        self.title = title
        self.body = body
        self.sentAt = sentAt
        self.sender = sender
        self.source = source
        self.payload = payload
    }

    /// The payload's `responseTopic`, when it has one.
    public var responseTopic: String? { payload["responseTopic"]?.stringValue }

    /// The payload's `fields`, each a JSON object; empty when it has none.
    public var fields: [JSONValue] { payload["fields"]?.arrayValue ?? [] }
}

extension Message {
    private enum CodingKeys: String, CodingKey { case messageId, title, body, sentAt, sender, source, payload }

    /// Encodes as the server writes it: the message id in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageId.uuidString.lowercased(), forKey: .messageId)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(sentAt, forKey: .sentAt)
        try container.encode(sender, forKey: .sender)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(payload, forKey: .payload)
    }
}
