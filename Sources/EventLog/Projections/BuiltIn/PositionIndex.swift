/// An index of positions by one field of the envelope: under each value of the field, the ascending set of the
/// positions of its events (a value-set table).
///
/// `byType` answers `muster events --type`, `byNamespace` answers `--namespace`.
public struct PositionIndex: Projection {
    /// Index of positions by event type.
    public static let byType = PositionIndex(name: "byType") { $0.type }
    /// Index of positions by namespace.
    public static let byNamespace = PositionIndex(name: "byNamespace") { $0.namespace }

    /// Version 1 kept a row per event (`value 0 position` → empty) in the table `positions`.
    static let table = "positionSets"
    public let name: String
    private let field: @Sendable (RecordedEvent) -> String
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { [Self.table] }
    public var valueSetTables: Set<String> { [Self.table] }
    public var eventTypes: Set<String>? { nil }

    init(name: String, field: @escaping @Sendable (RecordedEvent) -> String) {
        self.name = name
        self.field = field
    }

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        try append(CollectionOfOne(event.position), to: field(event), state)
    }

    /// Gathers the run's positions by value first: one write of a few thousand ascending positions per value.
    public func apply(_ events: [RecordedEvent], to state: ProjectionState) throws {
        if events.count == 1 { return try apply(events[0], to: state) }
        var positions: [String: [UInt64]] = [:]
        for event in events { positions[field(event), default: []].append(event.position) }
        for (value, ascending) in positions { try append(ascending, to: value, state) }
    }

    private func append(_ positions: some Sequence<UInt64>, to value: String, _ state: ProjectionState) throws {
        var value = value
        try value.withUTF8 { try state.appendValues(Self.table, key: UnsafeRawBufferPointer($0), ascending: positions) }
    }

    /// The key under which the positions of `value` are stored.
    static func key(_ value: String) -> [UInt8] { Array(value.utf8) }
}
