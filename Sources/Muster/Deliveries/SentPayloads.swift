import EventLog
import Foundation
import MusterWire
import Synchronization

/// The sends the outbox's deliveries carry, each decoded once. A send is one `PayloadSent` listing every
/// recipient (100,000 of them for a send to all), and each of its deliveries needs only its title, body and
/// payload: decoding the whole event again for every delivery made a fan-out quadratic in its recipients. An
/// event never changes at its position, so the few most recent sends are kept by position.
final class SentPayloads: Sendable {
    /// One decoded send and when it was recorded.
    struct Entry: Sendable {
        var position: UInt64
        var sent: PayloadSent
        var recordedAt: Int64
        /// The payload parsed, when it is direct (no `payloadName` to resolve): what every delivery of the send
        /// shows, so it is not resolved and parsed again for each. Nil for a named payload, resolved on every
        /// call as its name's current text, and for a payload that does not parse.
        var direct: JSONValue?
    }

    /// How many sends are kept (the oldest goes first).
    static let kept = 8
    private let entries = Mutex<[Entry]>([])

    /// The send recorded at `position`: kept, or read from `reader` and kept; nil when no `PayloadSent` is there.
    /// Decoded under the lock, so deliveries of one send started together decode it once.
    func sent(at position: UInt64, in reader: LogReader) throws -> Entry? {
        try entries.withLock { entries in
            if let kept = entries.first(where: { $0.position == position }) { return kept }
            guard let event = try reader.event(at: position), let sent = try PayloadSent.decode(event) else {
                return nil
            }
            let entry = Entry(
                position: position, sent: sent, recordedAt: event.recordedAt, direct: Self.direct(sent.payload))
            if entries.count >= Self.kept { entries.removeFirst() }
            entries.append(entry)
            return entry
        }
    }

    /// The payload parsed when `NamedPayloads.resolve` would give it back as it is (not an object, or an object
    /// without a string `payloadName`); nil when it names a payload or is not JSON.
    static func direct(_ payload: [UInt8]) -> JSONValue? {
        guard let value = try? JSONValue(json: Data(payload)) else { return nil }
        if value.objectValue?["payloadName"]?.stringValue != nil { return nil }
        return value
    }
}
