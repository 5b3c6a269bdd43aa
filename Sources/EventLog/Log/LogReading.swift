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

    /// The stream's last version and the position of its last event; nil when it does not exist.
    func streamHead(namespace: String, stream: String) throws -> (version: UInt64, position: UInt64)? {
        try Key.joined(namespace, stream).withUnsafeBytes { key in
            try txn.get(tables.streamHeads, key).flatMap(StreamHead.decode)
        }
    }

    /// Version of the stream's last event; 0 when the stream does not exist.
    func streamVersion(namespace: String, stream: String) throws -> UInt64 {
        try streamHead(namespace: namespace, stream: stream)?.version ?? 0
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

    /// The id, type and time of the event at `position`, its body not read; nil past the head.
    func eventHeader(at position: UInt64) throws -> EventHeader? {
        guard let bytes = try envelope(at: position) else { return nil }
        return try EnvelopeCodec.eventHeader(position: position, bytes)
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

    /// Visits the (version, position) of a stream's events from `version` on, in order, until `body`
    /// returns false. Walks back from the stream's head through the envelopes' previous-in-stream
    /// positions, then forward: cost grows with the events after `version`, not with the log.
    func streamPositions(
        namespace: String, stream: String, from version: UInt64 = 1, _ body: (UInt64, UInt64) throws -> Bool
    ) throws {
        guard let head = try streamHead(namespace: namespace, stream: stream) else { return }
        var chain: [(UInt64, UInt64)] = []
        var position = head.position
        var expected = head.version
        while position != 0 && expected >= max(version, 1) {
            guard let bytes = try envelope(at: position) else {
                throw StoreError(
                    .corrupt, "stream \(stream) points at missing position \(position)", remedy: .verify)
            }
            let link = try EnvelopeCodec.chainLink(position: position, bytes)
            guard link.version == expected, link.previous < position else {
                throw StoreError(
                    .corrupt,
                    "stream \(stream) is broken at position \(position) (version \(link.version), expected \(expected))",
                    remedy: .verify
                )
            }
            chain.append((link.version, position))
            position = link.previous
            expected -= 1
        }
        for (v, p) in chain.reversed() {
            guard try body(v, p) else { return }
        }
    }
}

/// The value of a `streamHeads` row: last version and last position, little-endian.
enum StreamHead {
    static func encode(version: UInt64, position: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 16)
        w.write(fixed: version)
        w.write(fixed: position)
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> (version: UInt64, position: UInt64)? {
        guard bytes.count == 16 else { return nil }
        return (
            UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
    }
}
