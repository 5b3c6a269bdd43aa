import EventLog
import Foundation
import Synchronization

/// The sends whose messages recipients open, answer and are told of, each decoded once. A send is one `PayloadSent`
/// listing every recipient (100,000 of them for a send to all); opening or answering one of its messages needs only
/// the send's title, body, sender, source, payload and topic, and an inbox's live stream only its user's message id.
/// Decoding the whole event for each made a large send's openings and answers quadratic in its recipients (20 a
/// second at 100,000), and its announcement to the open streams the streams times the recipients. An event never
/// changes, so the few most recent sends are kept by event id, without their recipients, and the latest two with
/// who got which message.
final class DecodedSends: Sendable {
    /// One for the process: an event id names one event, whichever log it is read from.
    static let shared = DecodedSends()
    /// How many sends are kept (the oldest goes first).
    static let kept = 16
    /// How many sends' recipients are kept by name: some 6 MB each at 100,000.
    static let indexesKept = 2
    private let entries = Mutex<[(id: UUID, sent: PayloadSent)]>([])
    private let indexes = Mutex<[(id: UUID, messages: [String: UUID])]>([])

    /// The send recorded as `event`, its `recipients` left empty; nil when `event` is not a `PayloadSent`.
    func withoutRecipients(_ event: RecordedEvent) throws -> PayloadSent? {
        if let kept = entries.withLock({ entries in entries.first { $0.id == event.id }?.sent }) { return kept }
        guard let sent = try PayloadSent.decode(event) else { return nil }
        return keep(sent, of: event)
    }

    /// The send recorded at `position` of `snapshot`, its `recipients` left empty, and when it was recorded; nil when
    /// there is no `PayloadSent` there. A send kept already is found by the event's id alone, its body (2.5 MB for a
    /// send to 100,000) neither copied nor checked again.
    func withoutRecipients(at position: UInt64, in snapshot: some LogSnapshot) throws -> (
        sent: PayloadSent, recordedAt: Int64
    )? {
        guard let header = try snapshot.eventHeader(at: position), header.type == PayloadSent.type else { return nil }
        if let kept = entries.withLock({ entries in entries.first { $0.id == header.id }?.sent }) {
            return (kept, header.recordedAt)
        }
        guard let event = try snapshot.event(at: position), let sent = try withoutRecipients(event) else { return nil }
        return (sent, event.recordedAt)
    }

    /// The send recorded as `event` (without its recipients) and the id of `user`'s message in it; nil when `event`
    /// is not a `PayloadSent` or the send was not to `user`. Decoded under the lock: the streams told of one send at
    /// once decode it once.
    func message(of user: String, in event: RecordedEvent) throws -> (sent: PayloadSent, messageId: UUID)? {
        guard event.type == PayloadSent.type else { return nil }
        let messages = try indexes.withLock { indexes -> [String: UUID]? in
            if let kept = indexes.first(where: { $0.id == event.id }) { return kept.messages }
            guard let sent = try PayloadSent.decode(event) else { return nil }
            let messages = Dictionary(
                sent.recipients.map { ($0.user, $0.messageId) }, uniquingKeysWith: { first, _ in first })
            if indexes.count >= Self.indexesKept { indexes.removeFirst() }
            indexes.append((event.id, messages))
            _ = keep(sent, of: event)
            return messages
        }
        guard let id = messages?[user], let sent = try withoutRecipients(event) else { return nil }
        return (sent, id)
    }

    /// Keeps `sent`, recorded as `event`, without its recipients; returns what is kept.
    private func keep(_ sent: PayloadSent, of event: RecordedEvent) -> PayloadSent {
        var head = sent
        head.recipients = []
        entries.withLock { entries in
            guard !entries.contains(where: { $0.id == event.id }) else { return }
            if entries.count >= Self.kept { entries.removeFirst() }
            entries.append((event.id, head))
        }
        return head
    }
}
