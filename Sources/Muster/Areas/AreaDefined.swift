import EventLog
import Foundation

/// An area was created or replaced (its whole definition, rules included).
public struct AreaDefined: DomainEvent, Hashable, Codable {
    public static let type = "AreaDefined"
    public static let schemaVersion: UInt16 = 1

    @StoredAsJSON public var area: Area
}

/// An area was removed; its counters stay in the log.
///
/// Schema 2 adds the kind. Schema 1 (0.1.0, when a geofence and a beacon region could not share an id) reads
/// with an empty kind: the one area of that id, whichever kind it was.
public struct AreaRemoved: DomainEvent, Hashable, Codable {
    public static let type = "AreaRemoved"
    public static let schemaVersion: UInt16 = 2

    public var id: String
    /// `geofence` or `beacon`; empty for the area of that id (schema 1).
    public var kind: String

    public init(_ identity: Area.Identity) {
        id = identity.id
        kind = identity.kind.rawValue
    }
}
