import EventLog

/// The current areas, per namespace: `namespace 0 id 0` → the `AreaDefined` body.
public struct AreasProjection: Projection {
    public static let name = "areas"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["areas"] }
    public var eventTypes: Set<String>? { [AreaDefined.type, AreaRemoved.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if event.type == AreaDefined.type {
            let area = try AreaDefined.decode(event)!.area
            try state.put("areas", Key.joined(event.namespace, area.id), event.body.bytes)
        } else if let removed = try AreaRemoved.decode(event) {
            try state.delete("areas", Key.joined(event.namespace, removed.id))
        }
    }

}

extension LogSnapshot {
    /// The areas in this snapshot.
    var areas: ProjectionView<AreasProjection> { get throws { try view(AreasProjection()) } }
}

extension ProjectionView<AreasProjection> {
    /// Every area of a namespace, by id.
    func areas(namespace: String) throws -> [Area] {
        try events("areas", prefix: Key.joined(namespace), as: AreaDefined.self).map(\.area)
    }

    /// One area, or nil.
    func area(_ id: String, namespace: String) throws -> Area? {
        try event("areas", Key.joined(namespace, id), as: AreaDefined.self)?.area
    }
}
