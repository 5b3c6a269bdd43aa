import EventLog
import Foundation

/// An event of Muster's domain: stored with the compact binary codec (decoded on every replay), and
/// rendered as JSON only at the edges (audit, `muster events`). An event that is `Codable` is
/// stored field by field in declaration order (`BinaryCoding`); the few whose schema-1 layout is
/// irregular (a field written only when present) write and read their bytes by hand.
public protocol DomainEvent: Sendable, Encodable {
    /// The type name stored in the envelope.
    static var type: String { get }
    /// The body's schema version; bump it with an upcaster in `Migrations/`.
    static var schemaVersion: UInt16 { get }
    /// Writes the body.
    func encode(into writer: inout ByteWriter)
    /// Reads a body written by `encode(into:)` at `schemaVersion`.
    init(from reader: inout ByteReader) throws
}

extension DomainEvent where Self: Decodable {
    public func encode(into writer: inout ByteWriter) {
        do {
            try BinaryCoding.encode(self, into: &writer)
        } catch {
            preconditionFailure("\(Self.type) has a field the binary codec cannot write: \(error)")
        }
    }

    public init(from reader: inout ByteReader) throws { self = try BinaryCoding.decode(Self.self, from: &reader) }
}

extension DomainEvent {
    /// The event ready to append.
    public func newEvent(actor: String, causationId: UUID? = nil, correlationId: UUID? = nil) -> NewEvent {
        var writer = ByteWriter(capacity: 64)
        encode(into: &writer)
        return NewEvent(
            type: Self.type, schemaVersion: Self.schemaVersion, body: .binary(writer.bytes), actor: actor,
            causationId: causationId, correlationId: correlationId)
    }

    /// The event decoded from a recorded one of this type; nil for another type.
    public static func decode(_ event: RecordedEvent) throws -> Self? {
        guard event.type == type else { return nil }
        guard event.body.format == .binary, event.schemaVersion == schemaVersion else {
            throw StoreError(
                .corrupt,
                "\(type) at position \(event.position) has schema \(event.schemaVersion) (\(event.body.format)); this release reads \(schemaVersion) — an upcaster is missing"
            )
        }
        return try event.body.bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try Self(from: &reader)
        }
    }
}
