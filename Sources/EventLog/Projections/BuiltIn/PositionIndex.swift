/// An index of positions by one field of the envelope: `field 0 position` → empty.
///
/// `byType` answers `muster events --type`, `byNamespace` answers `--namespace`.
public struct PositionIndex: Projection {
    /// Index of positions by event type.
    public static let byType = PositionIndex(name: "byType") { $0.type }
    /// Index of positions by namespace.
    public static let byNamespace = PositionIndex(name: "byNamespace") { $0.namespace }

    static let table = "positions"
    public let name: String
    private let field: @Sendable (RecordedEvent) -> String
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { [Self.table] }
    public var eventTypes: Set<String>? { nil }

    init(name: String, field: @escaping @Sendable (RecordedEvent) -> String) {
        self.name = name
        self.field = field
    }

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        var value = field(event)
        try value.withUTF8 { utf8 in
            try withUnsafeTemporaryAllocation(byteCount: utf8.count + 9, alignment: 1) { key in
                key.copyMemory(from: UnsafeRawBufferPointer(utf8))
                key[utf8.count] = 0
                key.storeBytes(of: event.position.bigEndian, toByteOffset: utf8.count + 1, as: UInt64.self)
                try state.put(Self.table, UnsafeRawBufferPointer(key), UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
    }

    /// The key prefix under which the positions of `value` are stored.
    static func prefix(_ value: String) -> [UInt8] { Key.joined(value) }
}
