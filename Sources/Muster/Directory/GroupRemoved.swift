import EventLog

/// A group was removed: sends can no longer name it. Its members stay users; defining the name again makes a new
/// group.
public struct GroupRemoved: DomainEvent, Hashable, Codable {
    public static let type = "GroupRemoved"
    public static let schemaVersion: UInt16 = 1

    public var name: String

    public init(name: String) { self.name = name }
}
