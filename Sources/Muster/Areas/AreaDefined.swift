import EventLog
import Foundation

/// An area was created or replaced (its whole definition, rules included).
public struct AreaDefined: DomainEvent, Hashable, Codable {
    public static let type = "AreaDefined"
    public static let schemaVersion: UInt16 = 1

    @StoredAsJSON public var area: Area
}

/// An area was removed; its counters stay in the log.
public struct AreaRemoved: DomainEvent, Hashable, Codable {
    public static let type = "AreaRemoved"
    public static let schemaVersion: UInt16 = 1

    public var id: String
}
