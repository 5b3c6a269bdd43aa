import Foundation

/// What sending a notification did: one message per recipient.
public struct SentNotification: Sendable, Hashable, Codable {
    /// The messages created, one per recipient.
    public var messageIds: [UUID]
    /// The usernames the notification went to (groups expanded, duplicates removed).
    public var recipients: [String]

    /// Creates a result from its parts.
    public init(messageIds: [UUID], recipients: [String]) {
        self.messageIds = messageIds
        self.recipients = recipients
    }

    private enum CodingKeys: String, CodingKey { case messageIds, recipients }

    /// Encodes as the server writes it: message ids in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageIds.map { $0.uuidString.lowercased() }, forKey: .messageIds)
        try container.encode(recipients, forKey: .recipients)
    }
}
