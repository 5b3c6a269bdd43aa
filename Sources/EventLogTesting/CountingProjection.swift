import EventLog

/// A test projection: counts events per stream in table `counts` (stream → u64 LE), inline or async,
/// at a chosen version; records how often it ran with side effects (not replaying).
public struct CountingProjection: Projection {
    public let name: String
    public let version: UInt32
    public let mode: ProjectionMode
    public var tables: [String] { ["counts", "sideEffects"] }
    public let eventTypes: Set<String>?

    /// - Parameter eventTypes: the types counted; nil counts every event.
    public init(
        name: String = "counts", version: UInt32 = 1, mode: ProjectionMode = .inline, eventTypes: Set<String>? = nil
    ) {
        self.name = name
        self.version = version
        self.mode = mode
        self.eventTypes = eventTypes
    }

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let key = Array(event.stream.utf8)
        let current = try Self.decode(state.get("counts", key))
        try state.put("counts", key, Self.encode(current + UInt64(version)))
        if !state.isReplaying {
            let effects = try Self.decode(state.get("sideEffects", [0]))
            try state.put("sideEffects", [0], Self.encode(effects + 1))
        }
    }

    /// The count for `stream` in the projection's current state.
    public static func count(_ stream: String, in state: ProjectionState) throws -> UInt64 {
        try decode(state.get("counts", Array(stream.utf8)))
    }

    /// How many times `apply` ran outside a rebuild.
    public static func sideEffects(in state: ProjectionState) throws -> UInt64 {
        try decode(state.get("sideEffects", [0]))
    }

    static func encode(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func decode(_ bytes: [UInt8]?) -> UInt64 {
        guard let bytes, bytes.count == 8 else { return 0 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }
}
