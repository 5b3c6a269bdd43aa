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
        try add(
            events: 1, bodyBytes: UInt64(event.body.bytes.count), to: Key.joined(event.namespace, event.type), state)
    }

    /// Sums the run's counts per namespace and type first: one read and one write per row, not per event.
    public func apply(_ events: [RecordedEvent], to state: ProjectionState) throws {
        var sums: [Pair: (events: UInt64, bodyBytes: UInt64)] = [:]
        for event in events {
            sums[Pair(namespace: event.namespace, type: event.type), default: (0, 0)].events += 1
            sums[Pair(namespace: event.namespace, type: event.type)]!.bodyBytes += UInt64(event.body.bytes.count)
        }
        for (pair, sum) in sums {
            try add(events: sum.events, bodyBytes: sum.bodyBytes, to: Key.joined(pair.namespace, pair.type), state)
        }
    }

    private struct Pair: Hashable {
        var namespace: String
        var type: String
    }

    private func add(events: UInt64, bodyBytes: UInt64, to key: [UInt8], _ state: ProjectionState) throws {
        try key.withUnsafeBytes { key in
            var counts: (events: UInt64, bytes: UInt64) = (0, 0)
            try state.withValue(Self.table, key) { value in
                guard let value, value.count == 16 else { return }
                counts.events = UInt64(littleEndian: value.loadUnaligned(as: UInt64.self))
                counts.bytes = UInt64(littleEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            var updated = ((counts.events + events).littleEndian, (counts.bytes + bodyBytes).littleEndian)
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
