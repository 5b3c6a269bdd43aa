import EventLog

/// A user was removed from the namespace. In the same append every session of theirs ends (`TokenRevoked`, reason
/// `userRemoved`), each of their devices is unregistered (`PushTargetUnregistered`) and each group they were in is
/// defined again without them (`GroupDefined`); the messages still waiting for them leave their inbox. What they did
/// stays in the log under their name, which is therefore not given to anyone again (`Directory.addUser`).
public struct UserRemoved: DomainEvent, Hashable, Codable {
    public static let type = "UserRemoved"
    public static let schemaVersion: UInt16 = 1

    public var name: String

    public init(name: String) { self.name = name }
}
