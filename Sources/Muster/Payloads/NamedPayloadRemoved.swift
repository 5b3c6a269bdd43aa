import EventLog

/// A named payload was removed: new sends can no longer name it. Messages sent by its name before still show it as
/// it was last stored, until it is stored again under that name.
public struct NamedPayloadRemoved: DomainEvent, Hashable, Codable {
    public static let type = "NamedPayloadRemoved"
    public static let schemaVersion: UInt16 = 1

    public var name: String

    public init(name: String) { self.name = name }
}
