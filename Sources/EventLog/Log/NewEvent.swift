import Foundation

/// An event to append: what happened, before the log gives it a position.
public struct NewEvent: Sendable, Hashable {
    /// Unique id; appending the same id again returns the original position (idempotent retries).
    public var id: UUID
    /// The event's type name, e.g. `ResponseReceived`.
    public var type: String
    /// Version of the body's schema for `type`; upcasters lift older versions on read.
    public var schemaVersion: UInt16
    public var body: EventBody
    /// Who caused it: a user name, `system`, a rule id.
    public var actor: String
    /// The event or command this one was caused by.
    public var causationId: UUID?
    /// The conversation this event belongs to.
    public var correlationId: UUID?

    public init(
        id: UUID = EventID.make(), type: String, schemaVersion: UInt16 = 1, body: EventBody, actor: String = "system",
        causationId: UUID? = nil, correlationId: UUID? = nil
    ) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.body = body
        self.actor = actor
        self.causationId = causationId
        self.correlationId = correlationId
    }
}
