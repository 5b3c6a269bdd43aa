import EventLog
import Foundation

/// A message as its send says it, and where it stands: what opening it (`GET /api/v1/messages/{id}`) and delivering
/// it read.
struct SentMessage {
    /// The send, kept decoded for all its messages.
    var send: DecodedSends.Send
    /// The message as an inbox lists it.
    var message: PayloadMessage
    var state: Addressed.State
}

extension LogSnapshot {
    /// Message `id` to `user` in `namespace`; nil when it was not sent to `user`.
    func sentMessage(_ id: UUID, user: String, namespace: String) throws -> SentMessage? {
        guard let addressed = try inbox.addressed(id, user: user, namespace: namespace) else { return nil }
        guard let send = try DecodedSends.shared.send(at: addressed.position, in: self) else {
            throw StoreError(
                .corrupt, "the inbox refers to a missing PayloadSent for message " + id.uuidString.lowercased())
        }
        let sent = send.sent
        let message = PayloadMessage(
            messageId: id, title: sent.title, body: sent.body, sentAt: send.recordedAt,
            responseTopic: sent.responseTopic, position: addressed.position)
        return SentMessage(send: send, message: message, state: addressed.state)
    }
}
