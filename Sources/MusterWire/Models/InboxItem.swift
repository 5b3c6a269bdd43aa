import Foundation

/// A message waiting in the user's inbox: what the app lists before the user opens it.
public struct InboxItem: Sendable, Hashable, Codable {
    /// The message's id; ``MusterClient/message(id:)`` fetches its payload.
    public var messageId: UUID
    /// The notification's title.
    public var title: String
    /// The notification's body (the subtitle).
    public var body: String
    /// When the message was sent.
    public var sentAt: Date
    /// The topic the response is published on.
    public var responseTopic: String

    /// Creates an inbox item from its parts.
    public init(messageId: UUID, title: String, body: String, sentAt: Date, responseTopic: String) {
        self.messageId = messageId
        self.title = title
        self.body = body
        self.sentAt = sentAt
        self.responseTopic = responseTopic
    }
}

extension InboxItem {
    private enum CodingKeys: String, CodingKey { case messageId, title, body, sentAt, responseTopic }

    /// Encodes as the server writes it: the message id in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageId.uuidString.lowercased(), forKey: .messageId)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(sentAt, forKey: .sentAt)
        try container.encode(responseTopic, forKey: .responseTopic)
    }
}
