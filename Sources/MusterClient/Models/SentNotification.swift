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
}
