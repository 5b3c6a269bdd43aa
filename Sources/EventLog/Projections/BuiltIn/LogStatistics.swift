/// Counts and body bytes per namespace and type, kept by a tail (an async projection).
public struct LogStatistics: Projection {
    public static let name = "statistics"
    static let table = "perType"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .async }
    public var tables: [String] { [Self.table] }
    public var eventTypes: Set<String>? { nil }

    public init() {}

    /// One row of the statistics.
    public struct Row: Sendable, Hashable, Codable {
        public var namespace: String
        public var type: String
        public var events: UInt64
        public var bodyBytes: UInt64
    }

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let key = Key.joined(event.namespace, event.type)
        try key.withUnsafeBytes { key in
            var counts: (events: UInt64, bytes: UInt64) = (0, 0)
            try state.withValue(Self.table, key) { value in
                guard let value, value.count == 16 else { return }
                counts.events = UInt64(littleEndian: value.loadUnaligned(as: UInt64.self))
                counts.bytes = UInt64(littleEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            var updated = (
                (counts.events + 1).littleEndian, (counts.bytes + UInt64(event.body.bytes.count)).littleEndian
            )
            try withUnsafeBytes(of: &updated) { try state.put(Self.table, key, $0) }
        }
    }

    /// Reads every row from the projection's state.
    public static func rows(_ state: ProjectionState) throws -> [Row] {
        var rows: [Row] = []
        try state.scan(table) { key, value in
            let parts = key.split(separator: 0, omittingEmptySubsequences: false)
            guard parts.count >= 2, value.count == 16 else { return true }
            rows.append(
                Row(
                    namespace: String(decoding: parts[0], as: UTF8.self),
                    type: String(decoding: parts[1], as: UTF8.self),
                    events: UInt64(littleEndian: value.loadUnaligned(as: UInt64.self)),
                    bodyBytes: UInt64(littleEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self))))
            return true
        }
        return rows
    }
}
