import EventLog
import Foundation

/// A message sent to `user` was withdrawn before they answered it: it leaves their inbox, it can no longer be answered,
/// and the pushes still waiting to carry it are not sent. On the message's stream, where its answer would go: a
/// message is answered or withdrawn, once.
public struct MessageWithdrawn: DomainEvent, Hashable, Codable {
    public static let type = "MessageWithdrawn"
    public static let schemaVersion: UInt16 = 1

    public var messageId: UUID
    /// The recipient.
    public var user: String
}
