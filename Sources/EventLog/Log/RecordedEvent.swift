import Foundation

/// An event as stored in the log, with its global position and its place in its stream.
public struct RecordedEvent: Sendable, Hashable {
    /// Global position: contiguous from 1, in commit order.
    public var position: UInt64
    public var id: UUID
    public var namespace: String
    public var stream: String
    /// Version within the stream: contiguous from 1.
    public var version: UInt64
    public var type: String
    public var schemaVersion: UInt16
    /// Microseconds since 1970-01-01T00:00:00Z, from the store's clock.
    public var recordedAt: Int64
    public var actor: String
    public var causationId: UUID?
    public var correlationId: UUID?
    public var body: EventBody

    public init(
        position: UInt64, id: UUID, namespace: String, stream: String, version: UInt64, type: String,
        schemaVersion: UInt16, recordedAt: Int64, actor: String, causationId: UUID?, correlationId: UUID?,
        body: EventBody
    ) {
        self.position = position
        self.id = id
        self.namespace = namespace
        self.stream = stream
        self.version = version
        self.type = type
        self.schemaVersion = schemaVersion
        self.recordedAt = recordedAt
        self.actor = actor
        self.causationId = causationId
        self.correlationId = correlationId
        self.body = body
    }

    /// `recordedAt` as a date.
    public var recordedDate: Date { Date(timeIntervalSince1970: Double(recordedAt) / 1_000_000) }
}
