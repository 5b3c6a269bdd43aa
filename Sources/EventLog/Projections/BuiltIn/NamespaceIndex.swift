/// Index of positions by namespace: `namespace 0 position` → empty. Answers `muster events --namespace`.
public struct NamespaceIndex: Projection {
    public static let name = "byNamespace"
    static let table = "positions"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { [Self.table] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        try state.put(Self.table, Key.joined(event.namespace) + Key.position(event.position), [])
    }
}
