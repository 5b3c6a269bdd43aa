import EventLog

/// The current areas, per namespace: `namespace 0 kind 0 id 0` → the `AreaDefined` body.
///
/// Version 2 keys by kind and id (version 1 by id alone, so a beacon region replaced a geofence of the same id).
public struct AreasProjection: Projection {
    public static let name = "areas"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["areas"] }
    public var eventTypes: Set<String>? { [AreaDefined.type, AreaRemoved.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if event.type == AreaDefined.type {
            let area = try AreaDefined.decode(event)!.area
            try state.put("areas", Key.joined(event.namespace) + area.identity.key, event.body.bytes)
        } else if let removed = try AreaRemoved.decode(event) {
            // Schema 1 named no kind: the one area of that id, whichever it was.
            let kinds = Area.Kind(rawValue: removed.kind).map { [$0] } ?? Area.Kind.allCases
            for kind in kinds {
                try state.delete("areas", Key.joined(event.namespace) + Area.Identity(kind: kind, id: removed.id).key)
            }
        }
    }
}

extension LogSnapshot {
    /// The areas in this snapshot.
    var areas: ProjectionView<AreasProjection> { get throws { try view(AreasProjection()) } }
}

extension ProjectionView<AreasProjection> {
    /// Every area of a namespace, by kind then id.
    func areas(namespace: String) throws -> [Area] {
        try events("areas", prefix: Key.joined(namespace), as: AreaDefined.self).map(\.area)
    }

    /// One area, or nil.
    func area(_ identity: Area.Identity, namespace: String) throws -> Area? {
        try event("areas", Key.joined(namespace) + identity.key, as: AreaDefined.self)?.area
    }

    /// The geofence with this id, or nil: what a geotrigger's `areas` name.
    func area(_ id: String, namespace: String) throws -> Area? {
        try area(Area.Identity(kind: .geofence, id: id), namespace: namespace)
    }

    /// The areas with this id, geofence first.
    func areas(id: String, namespace: String) throws -> [Area] {
        try Area.Kind.allCases.compactMap { try area(Area.Identity(kind: $0, id: id), namespace: namespace) }
    }

    /// The area `id` names, of `kind` when given; see `Areas.resolve`.
    func resolve(_ id: String, kind: Area.Kind?, namespace: String) throws -> Area {
        let found = try areas(id: id, namespace: namespace).filter { kind == nil || $0.kind == kind }
        guard let first = found.first else {
            throw MusterError(
                .notFound, "no \(kind?.description ?? "area") \(String(reflecting: id)) in namespace \(namespace)")
        }
        guard found.count == 1 else {
            throw MusterError(
                .invalidArgument,
                "area: \(String(reflecting: id)) names both a geofence and a beacon region in namespace \(namespace); give the kind (geofence or beacon)"
            )
        }
        return first
    }
}
