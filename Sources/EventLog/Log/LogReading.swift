import Foundation

/// Reads of the log inside one transaction (a read snapshot, or the writer's transaction).
struct LogReading {
    let tables: LogTables
    let txn: Transaction
    /// Applied by `event(at:)` and `scan`, so projections and queries see current schemas.
    var upcasters = UpcasterRegistry([])

    /// Position of the last event; 0 when the log is empty.
    func head() throws -> UInt64 {
        let cursor = try Cursor(txn, tables.events)
        defer { cursor.close() }
        guard let (key, _) = try cursor.last() else { return 0 }
        return Key.readPosition(key)
    }

    /// Version of the stream's last event; 0 when the stream does not exist.
    func streamVersion(namespace: String, stream: String) throws -> UInt64 {
        let prefix = Key.joined(namespace, stream)
        let cursor = try Cursor(txn, tables.streams)
        defer { cursor.close() }
        let beyond = prefix + [UInt8](repeating: 0xFF, count: 8)
        let entry =
            try beyond.withUnsafeBytes { try cursor.seek($0) } != nil ? try cursor.previous() : try cursor.last()
        guard let (key, _) = entry, key.count == prefix.count + 8, key.starts(with: prefix) else { return 0 }
        return Key.readPosition(key, at: prefix.count)
    }

    /// The raw envelope at `position`.
    func envelope(at position: UInt64) throws -> UnsafeRawBufferPointer? {
        try withUnsafeBytes(of: position.bigEndian) { try txn.get(tables.events, $0) }
    }

    /// The event at `position`, or nil past the head.
    func event(at position: UInt64, verify: Bool = true) throws -> RecordedEvent? {
        guard let bytes = try envelope(at: position) else { return nil }
        return upcasters.upcast(try EnvelopeCodec.decode(position: position, bytes, verify: verify))
    }

    /// Position of a stored event id.
    func position(ofEventId id: UUID) throws -> UInt64? {
        try withUnsafeBytes(of: id.uuid) { k in
            try txn.get(tables.eventIds, k).map { Key.readPosition($0) }
        }
    }

    /// Visits events from `position` on, in order, until `body` returns false.
    func scan(from position: UInt64, verify: Bool = true, _ body: (RecordedEvent) throws -> Bool) throws {
        try withUnsafeBytes(of: max(position, 1).bigEndian) { start in
            try txn.scan(tables.events, from: start) { key, value in
                try body(upcasters.upcast(EnvelopeCodec.decode(position: Key.readPosition(key), value, verify: verify)))
            }
        }
    }

    /// Visits the positions of a stream's events from `version` on, until `body` returns false.
    func streamPositions(
        namespace: String, stream: String, from version: UInt64 = 1, _ body: (UInt64, UInt64) throws -> Bool
    ) throws {
        let prefix = Key.joined(namespace, stream)
        let start = prefix + Key.position(max(version, 1))
        try start.withUnsafeBytes { s in
            try txn.scan(tables.streams, from: s) { key, value in
                guard key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
                return try body(Key.readPosition(key, at: prefix.count), Key.readPosition(value))
            }
        }
    }
}
