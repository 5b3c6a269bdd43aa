import EventLog

/// A named set of users to send to; defining a group again replaces its members.
public struct GroupDefined: DomainEvent, Hashable {
    public static let type = "GroupDefined"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    /// Members in the order given, duplicates removed.
    public var members: [String]

    public init(name: String, members: [String]) {
        self.name = name
        self.members = members
    }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(varint: UInt64(members.count))
        for member in members { w.write(member) }
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("group name")
        let count = try r.readVarint("member count")
        guard count <= UInt64(r.remaining) else {
            throw StoreError(.corrupt, "group \(name) declares \(count) members")
        }
        members = try (0..<count).map { _ in try r.readString("member") }
    }
}
