import EventLog
import Foundation

extension Notifications {
    /// A change to one person's inbox.
    public struct InboxUpdate: Sendable, Hashable {
        public enum Change: Sendable, Hashable {
            /// A message arrived.
            case arrived(PayloadMessage)
            /// A message was answered, from any device of the user: it left the inbox.
            case answered(messageId: UUID)
            /// A message was withdrawn by its sender before the user answered it: it left the inbox.
            case withdrawn(messageId: UUID)
        }
        /// Log position of the event: a device that reconnects resumes after it.
        public var position: UInt64
        public var change: Change
    }

    /// The changes to `user`'s inbox from log position `from` (nil: from now on), live, as they are
    /// recorded by this process or another one on the same data directory, until the consumer stops.
    public func inboxUpdates(user: String, namespace: String = Names.defaultNamespace, from: UInt64? = nil)
        -> some AsyncSequence<InboxUpdate, any Error> & Sendable
    {
        follow(
            namespace: namespace, types: [PayloadSent.type, ResponseReceived.type, MessageWithdrawn.type], from: from
        ) {
            event in
            if event.type == PayloadSent.type {
                // Every open stream is told of a send: it is decoded once for all of them.
                guard let (send, messageId) = try DecodedSends.shared.message(of: user, in: event) else { return nil }
                let sent = send.sent
                let message = PayloadMessage(
                    messageId: messageId, title: sent.title, body: sent.body, sentAt: event.recordedAt,
                    responseTopic: sent.responseTopic, position: event.position)
                return InboxUpdate(position: event.position, change: .arrived(message))
            }
            if let response = try ResponseReceived.decode(event), response.user == user, response.request == nil {
                return InboxUpdate(position: event.position, change: .answered(messageId: response.messageId))
            }
            if let withdrawn = try MessageWithdrawn.decode(event), withdrawn.user == user {
                return InboxUpdate(position: event.position, change: .withdrawn(messageId: withdrawn.messageId))
            }
            return nil
        }
    }
}
