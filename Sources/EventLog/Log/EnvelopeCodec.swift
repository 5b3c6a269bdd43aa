import Foundation

/// The stored form of an event: a compact binary envelope followed by the body and a CRC-32C.
///
/// Layout (little-endian): format u8 · body format u8 · schema version u16 · recorded-at i64 ·
/// previous position in the same stream u64 (0 for a stream's first event; a fixed offset, so a
/// stream is walked without decoding) · stream version varint · id 16 · namespace, stream, type,
/// actor (varint length + UTF-8) ·
/// causation, correlation (flag + 16) · body (varint length + bytes) · crc32c u32.
/// The checksum covers the position too, so a value stored under the wrong key is detected.
enum EnvelopeCodec {
    static let format: UInt8 = 1

    /// Offset of the previous-in-stream position.
    static let previousOffset = 12

    static func encode(_ event: RecordedEvent, previousInStream: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 96 + event.stream.utf8.count + event.body.bytes.count)
        w.write(format)
        w.write(event.body.format.rawValue)
        w.write(fixed: event.schemaVersion)
        w.write(fixed: event.recordedAt)
        w.write(fixed: previousInStream)
        w.write(varint: event.version)
        w.write(event.id)
        w.write(event.namespace)
        w.write(event.stream)
        w.write(event.type)
        w.write(event.actor)
        w.write(event.causationId)
        w.write(event.correlationId)
        w.write(bytes: event.body.bytes)
        var crc = withUnsafeBytes(of: event.position.bigEndian) { CRC32C.checksum($0) }
        crc = w.bytes.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
        w.write(fixed: crc)
        return w.bytes
    }

    /// Decodes the envelope stored under `position`; with `verify` the checksum is checked first.
    static func decode(position: UInt64, _ bytes: UnsafeRawBufferPointer, verify: Bool = true) throws -> RecordedEvent {
        guard bytes.count >= 4 + 1 + 1 + 2 + 8 + 8 else {
            throw StoreError(.corrupt, "event at position \(position) is truncated (\(bytes.count) bytes)")
        }
        if verify { try verifyChecksum(position: position, bytes) }
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 4)]))
        let version = try r.readByte("envelope format")
        guard version == format else {
            throw StoreError(
                .corrupt, "event at position \(position) has envelope format \(version); this release reads \(format)")
        }
        guard let bodyFormat = EventBody.Format(rawValue: try r.readByte("body format")) else {
            throw StoreError(.corrupt, "event at position \(position) has an unknown body format")
        }
        let schemaVersion = try r.read(fixed: UInt16.self, "schema version")
        let recordedAt = try r.read(fixed: Int64.self, "recorded at")
        _ = try r.read(fixed: UInt64.self, "previous position in stream")
        let streamVersion = try r.readVarint("stream version")
        let id = try r.readUUID("event id")
        let namespace = try r.readString("namespace")
        let stream = try r.readString("stream")
        let type = try r.readString("type")
        let actor = try r.readString("actor")
        let causation = try r.readOptionalUUID("causation id")
        let correlation = try r.readOptionalUUID("correlation id")
        let body = try r.readBytes("body")
        return RecordedEvent(
            position: position, id: id, namespace: namespace, stream: stream, version: streamVersion, type: type,
            schemaVersion: schemaVersion, recordedAt: recordedAt, actor: actor, causationId: causation,
            correlationId: correlation, body: EventBody(format: bodyFormat, bytes: body))
    }

    static func verifyChecksum(position: UInt64, _ bytes: UnsafeRawBufferPointer) throws {
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
        var crc = withUnsafeBytes(of: position.bigEndian) { CRC32C.checksum($0) }
        crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 4)]), continuing: crc)
        if crc != stored {
            throw StoreError(
                .corrupt,
                "event at position \(position) fails its checksum (stored \(hex(stored)), computed \(hex(crc)))",
                remedy: .verifyAndRestore)
        }
    }

    /// Reads only the stream/type/namespace/id a store index needs, without copying the body.
    static func header(position: UInt64, _ bytes: UnsafeRawBufferPointer) throws -> Header {
        var r = ByteReader(bytes, offset: previousOffset)
        let previous = try r.read(fixed: UInt64.self, "previous position in stream")
        let version = try r.readVarint("stream version")
        let id = try r.readUUID("event id")
        let namespace = try r.readString("namespace")
        let stream = try r.readString("stream")
        let type = try r.readString("type")
        return Header(id: id, namespace: namespace, stream: stream, version: version, type: type, previous: previous)
    }

    /// The id, type and time of the envelope stored under `position`, without the body or its checksum.
    static func eventHeader(position: UInt64, _ bytes: UnsafeRawBufferPointer) throws -> EventHeader {
        guard bytes.count >= 4 + 1 + 1 + 2 + 8 + 8, bytes[0] == format else {
            throw StoreError(.corrupt, "event at position \(position) is truncated or of an unknown envelope format")
        }
        let header = try header(position: position, bytes)
        var r = ByteReader(bytes, offset: 4)
        return EventHeader(id: header.id, type: header.type, recordedAt: try r.read(fixed: Int64.self, "recorded at"))
    }

    struct Header {
        var id: UUID
        var namespace: String
        var stream: String
        var version: UInt64
        var type: String
        /// Position of the stream's previous event; 0 for its first.
        var previous: UInt64
    }

    /// The previous-in-stream position and the stream version, read at fixed places without decoding.
    static func chainLink(position: UInt64, _ bytes: UnsafeRawBufferPointer) throws -> (
        previous: UInt64, version: UInt64
    ) {
        var r = ByteReader(bytes, offset: previousOffset)
        return (try r.read(fixed: UInt64.self, "previous position in stream"), try r.readVarint("stream version"))
    }

    private static func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }
}
