import EventLog

/// The current areas, per namespace: `namespace 0 id 0` → the `AreaDefined` body.
public struct AreasProjection: Projection {
    public static let name = "areas"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["areas"] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if event.type == AreaDefined.type {
            let area = try AreaDefined.decode(event)!.area
            try state.put("areas", DirectoryProjection.key(event.namespace, area.id), event.body.bytes)
        } else if let removed = try AreaRemoved.decode(event) {
            try state.delete("areas", DirectoryProjection.key(event.namespace, removed.id))
        }
    }

    /// Every area of a namespace, by id.
    static func areas(_ namespace: String, _ state: ProjectionState) throws -> [Area] {
        var areas: [Area] = []
        try state.scan("areas", prefix: DirectoryProjection.key(namespace)) { _, value in
            var reader = ByteReader(value)
            areas.append(try AreaDefined(from: &reader).area)
            return true
        }
        return areas
    }

    static func area(_ id: String, _ namespace: String, _ state: ProjectionState) throws -> Area? {
        guard let bytes = try state.get("areas", DirectoryProjection.key(namespace, id)) else { return nil }
        return try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try AreaDefined(from: &reader).area
        }
    }
}
