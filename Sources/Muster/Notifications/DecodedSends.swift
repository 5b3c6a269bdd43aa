import EventLog
import Foundation
import MusterWire
import Synchronization

/// The sends whose messages are delivered, opened, answered and told of, each decoded once. A send is one
/// `PayloadSent` listing every recipient (100,000 of them for a send to all); delivering, opening or answering one
/// of its messages needs only the send's title, body, sender, source, payload and topic, and an inbox's live stream
/// only its user's message id. Decoding the whole event for each made a large send's fan-out, openings and answers
/// quadratic in its recipients, and its announcement to the open streams the streams times the recipients. An event
/// never changes, so the few most recent sends are kept by event id, without their recipients, and the latest two
/// with who got which message. A send kept is found from its event's head: its body is not read again.
final class DecodedSends: Sendable {
    /// A send as its messages need it.
    struct Send: Sendable {
        /// The send's id: its event's.
        var id: UUID
        /// The send, its `recipients` left empty.
        var sent: PayloadSent
        /// When it was recorded, µs since 1970.
        var recordedAt: Int64
        /// The payload parsed, when it is direct (no `payloadName` to resolve): what every message of the send
        /// shows, so it is not resolved and parsed again for each. Nil for a named payload, resolved on every
        /// call as its name's current text, and for a payload that does not parse.
        var direct: JSONValue?
    }

    /// One for the process: an event id names one event, whichever log it is read from.
    static let shared = DecodedSends()
    /// How many sends are kept (the oldest goes first): a few KB each without their recipients, so a list of sends
    /// is read from them too.
    let kept: Int
    /// The most payload bytes the sends kept may hold together (the parsed direct payloads about as much again): a
    /// payload may be as large as a request body (1 MiB by default). The latest send is kept whatever its size.
    let keptPayloadBytes: Int
    /// How many sends' recipients are kept, in order (and by name once asked): some 8 MB each at 100,000.
    static let indexesKept = 2
    private let entries = Mutex<[(id: UUID, send: Send)]>([])
    private let indexes = Mutex<[(id: UUID, recipients: Recipients)]>([])

    init(kept: Int = 256, keptPayloadBytes: Int = 16 << 20) {
        self.kept = kept
        self.keptPayloadBytes = keptPayloadBytes
    }

    /// A send's recipients in the send's order and, once a live stream asked, where each user is among them.
    private struct Recipients: Sendable {
        var all: [PayloadSent.Recipient]
        var byUser: [String: Int]?
    }

    /// The send recorded at `position` of `snapshot`; nil when there is no `PayloadSent` there. Decoded under the
    /// lock, so the deliveries of one send started together decode it once.
    func send(at position: UInt64, in snapshot: some LogSnapshot) throws -> Send? {
        guard let header = try snapshot.eventHeader(at: position), header.type == PayloadSent.type else { return nil }
        return try entries.withLock { entries in
            if let kept = entries.first(where: { $0.id == header.id }) { return kept.send }
            guard let event = try snapshot.event(at: position), let sent = try PayloadSent.decode(event) else {
                return nil
            }
            return keep(sent, of: event, in: &entries)
        }
    }

    /// The send recorded as `event`; nil when `event` is not a `PayloadSent`.
    func send(_ event: RecordedEvent) throws -> Send? {
        guard event.type == PayloadSent.type else { return nil }
        return try entries.withLock { entries in
            if let kept = entries.first(where: { $0.id == event.id }) { return kept.send }
            guard let sent = try PayloadSent.decode(event) else { return nil }
            return keep(sent, of: event, in: &entries)
        }
    }

    /// The send recorded as `event` and the id of `user`'s message in it; nil when `event` is not a `PayloadSent`
    /// or the send was not to `user`. Decoded under the lock: the streams told of one send at once decode it once.
    func message(of user: String, in event: RecordedEvent) throws -> (send: Send, messageId: UUID)? {
        guard event.type == PayloadSent.type else { return nil }
        let messageId = try indexes.withLock { indexes -> UUID? in
            guard let kept = try keptRecipients(of: event.id, read: { event }, in: &indexes) else { return nil }
            if indexes[kept].recipients.byUser == nil {
                let all = indexes[kept].recipients.all
                indexes[kept].recipients.byUser = Dictionary(
                    all.indices.map { (all[$0].user, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return indexes[kept].recipients.byUser?[user].map { indexes[kept].recipients.all[$0].messageId }
        }
        guard let messageId, let send = try send(event) else { return nil }
        return (send, messageId)
    }

    /// The recipients of the send recorded at `position` of `snapshot`, in the send's order; nil when there is no
    /// `PayloadSent` there. What a page of a send's messages walks: kept for the latest sends asked of.
    func recipients(at position: UInt64, in snapshot: some LogSnapshot) throws -> [PayloadSent.Recipient]? {
        guard let header = try snapshot.eventHeader(at: position), header.type == PayloadSent.type else { return nil }
        return try indexes.withLock { indexes in
            try keptRecipients(of: header.id, read: { try snapshot.event(at: position) }, in: &indexes)
                .map { indexes[$0].recipients.all }
        }
    }

    /// Where in `indexes` the recipients of the send whose event is `id` are: kept, or decoded from the event `read`
    /// gives and kept (the send's head too); nil when that is no `PayloadSent`.
    private func keptRecipients(
        of id: UUID, read: () throws -> RecordedEvent?, in indexes: inout [(id: UUID, recipients: Recipients)]
    ) throws -> Int? {
        if let kept = indexes.firstIndex(where: { $0.id == id }) { return kept }
        guard let event = try read(), let sent = try PayloadSent.decode(event) else { return nil }
        if indexes.count >= Self.indexesKept { indexes.removeFirst() }
        indexes.append((id, Recipients(all: sent.recipients)))
        entries.withLock { entries in
            if !entries.contains(where: { $0.id == id }) { _ = keep(sent, of: event, in: &entries) }
        }
        return indexes.count - 1
    }

    /// Keeps `sent`, recorded as `event`, without its recipients; returns what is kept.
    private func keep(_ sent: PayloadSent, of event: RecordedEvent, in entries: inout [(id: UUID, send: Send)]) -> Send
    {
        var head = sent
        head.recipients = []
        let send = Send(id: event.id, sent: head, recordedAt: event.recordedAt, direct: Self.direct(sent.payload))
        entries.append((event.id, send))
        var bytes = entries.reduce(0) { $0 + $1.send.sent.payload.count }
        while entries.count > 1, entries.count > kept || bytes > keptPayloadBytes {
            bytes -= entries.removeFirst().send.sent.payload.count
        }
        return send
    }

    /// The payload parsed when `NamedPayloads.resolve` would give it back as it is (not an object, or an object
    /// without a string `payloadName`); nil when it names a payload or is not JSON.
    static func direct(_ payload: [UInt8]) -> JSONValue? {
        guard let value = try? JSONValue(json: Data(payload)) else { return nil }
        if value.objectValue?["payloadName"]?.stringValue != nil { return nil }
        return value
    }
}
