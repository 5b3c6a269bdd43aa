import EventLog

/// A document was removed by its uploader or an administrator: nobody reads it by its name any more, answers can no
/// longer name it, and its size no longer counts against the storage quotas. The responses and messages that named
/// it keep the name. Its bytes stay in the blob store, as every event stays in the log.
public struct DocumentRemoved: DomainEvent, Hashable, Codable {
    public static let type = "DocumentRemoved"
    public static let schemaVersion: UInt16 = 1

    /// `rcs/<kind>/<uuid>.<ext>`.
    public var name: String

    public init(name: String) { self.name = name }
}
