/// Lifts events of one type from one schema version to a newer one, on read.
///
/// Stored bytes never change; every reader (queries, projections, rebuilds) sees the current schema.
public protocol Upcaster: Sendable {
    /// The event type this upcaster handles.
    var type: String { get }
    /// The schema version it reads; it returns an event of a higher version.
    var fromSchemaVersion: UInt16 { get }
    func upcast(_ event: RecordedEvent) -> RecordedEvent
}

/// The upcasters of a release, applied in chain until no upcaster matches.
public struct UpcasterRegistry: Sendable {
    private let byKey: [Key: any Upcaster]

    private struct Key: Hashable {
        var type: String
        var version: UInt16
    }

    public init(_ upcasters: [any Upcaster]) {
        var map: [Key: any Upcaster] = [:]
        for u in upcasters { map[Key(type: u.type, version: u.fromSchemaVersion)] = u }
        byKey = map
    }

    /// True when no upcaster is registered: reads skip the lookup.
    public var isEmpty: Bool { byKey.isEmpty }

    /// The event lifted to the newest schema version the registry knows.
    public func upcast(_ event: RecordedEvent) -> RecordedEvent {
        if byKey.isEmpty { return event }
        var current = event
        while let u = byKey[Key(type: current.type, version: current.schemaVersion)] {
            let next = u.upcast(current)
            precondition(
                next.schemaVersion > current.schemaVersion, "upcaster for \(current.type) must raise the schema version"
            )
            current = next
        }
        return current
    }
}
