import EventLog

/// A request template was removed: it is no longer offered, and answering it is refused. The answers it was given
/// stay in the log.
public struct RequestTemplateRemoved: DomainEvent, Hashable, Codable {
    public static let type = "RequestTemplateRemoved"
    public static let schemaVersion: UInt16 = 1

    public var name: String

    public init(name: String) { self.name = name }
}
