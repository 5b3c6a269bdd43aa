/// Index of positions by event type: `type 0 position` → empty. Answers `muster events --type`.
public struct TypeIndex: Projection {
    public static let name = "byType"
    static let table = "positions"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { [Self.table] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        try state.put(Self.table, Key.joined(event.type) + Key.position(event.position), [])
    }
}
