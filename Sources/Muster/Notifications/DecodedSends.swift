import EventLog
import Foundation
import Synchronization

/// The sends whose messages recipients open and answer, each decoded once. A send is one `PayloadSent` listing
/// every recipient (100,000 of them for a send to all); opening or answering one of its messages needs only the
/// send's title, body, sender, source, payload and topic, and decoding the whole event for each made a large send's
/// openings and answers quadratic in its recipients (20 a second at 100,000). An event never changes, so the few
/// most recent sends are kept by event id, without their recipients.
final class DecodedSends: Sendable {
    /// One for the process: an event id names one event, whichever log it is read from.
    static let shared = DecodedSends()
    /// How many sends are kept (the oldest goes first).
    static let kept = 16
    private let entries = Mutex<[(id: UUID, sent: PayloadSent)]>([])

    /// The send recorded as `event`, its `recipients` left empty; nil when `event` is not a `PayloadSent`.
    func withoutRecipients(_ event: RecordedEvent) throws -> PayloadSent? {
        if let kept = entries.withLock({ entries in entries.first { $0.id == event.id }?.sent }) { return kept }
        guard var sent = try PayloadSent.decode(event) else { return nil }
        sent.recipients = []
        entries.withLock { entries in
            if entries.count >= Self.kept { entries.removeFirst() }
            entries.append((event.id, sent))
        }
        return sent
    }
}
