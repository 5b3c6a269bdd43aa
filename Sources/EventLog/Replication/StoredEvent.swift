import Foundation

/// An event exactly as the log stores it: its position and its envelope's bytes (checksummed together with the
/// position). What replication carries: a replica appends the same bytes at the same position, so its log reads
/// back byte for byte as the primary's.
public struct StoredEvent: Sendable, Hashable {
    /// The position the envelope was stored at.
    public var position: UInt64
    /// The event's id (also inside the envelope), for de-duplicating copies in transit.
    public var id: UUID
    /// The envelope, as in the log's `events` table.
    public var envelope: [UInt8]

    /// An event read from `envelope`, checked against `position`; throws `.corrupt` when the bytes are not an
    /// envelope stored at that position (a checksum that fails, a truncated or unknown layout).
    public init(position: UInt64, envelope: [UInt8]) throws {
        let id = try envelope.withUnsafeBytes { try EnvelopeCodec.decode(position: position, $0).id }
        self.init(position: position, id: id, envelope: envelope)
    }

    /// The event the envelope holds, as it was recorded (no upcaster applied).
    public func recorded() throws -> RecordedEvent {
        try envelope.withUnsafeBytes { try EnvelopeCodec.decode(position: position, $0, verify: false) }
    }

    init(position: UInt64, id: UUID, envelope: [UInt8]) {
        self.position = position
        self.id = id
        self.envelope = envelope
    }
}

extension LogReader {
    /// The events from `position` on as stored, in order, at most `limit` of them.
    public func storedEvents(from position: UInt64, limit: Int) throws -> [StoredEvent] {
        var events: [StoredEvent] = []
        guard limit > 0 else { return events }
        try withUnsafeBytes(of: max(position, 1).bigEndian) { start in
            try txn.scan(core.tables.events, from: start) { key, value in
                let position = Key.readPosition(key)
                let event = try EnvelopeCodec.decode(position: position, value)
                events.append(StoredEvent(position: position, id: event.id, envelope: Array(value)))
                return events.count < limit
            }
        }
        return events
    }
}
