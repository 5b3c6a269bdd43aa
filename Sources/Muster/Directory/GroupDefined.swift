import EventLog

/// A named set of users to send to; defining a group again replaces its members.
public struct GroupDefined: DomainEvent, Hashable, Codable {
    public static let type = "GroupDefined"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    /// Members in the order given, duplicates removed.
    public var members: [String]
}
