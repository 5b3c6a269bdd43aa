import EventLog

/// Named payloads of every namespace, kept inline so a send checks a `payloadName` in the same
/// transaction as it appends.
///
/// Table `payloads`: `namespace 0 name 0` → the payload's JSON text.
public struct NamedPayloadProjection: Projection {
    public static let name = "namedPayloads"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["payloads"] }
    public var eventTypes: Set<String>? { [NamedPayloadStored.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let stored = try NamedPayloadStored.decode(event) {
            try state.put("payloads", Key.joined(event.namespace, stored.name), stored.payload)
        }
    }
}

extension LogSnapshot {
    /// The named payloads in this snapshot.
    var namedPayloads: ProjectionView<NamedPayloadProjection> { get throws { try view(NamedPayloadProjection()) } }
}

extension ProjectionView<NamedPayloadProjection> {
    /// The payload stored under `name`, as given; nil when there is none.
    func payload(_ name: String, namespace: String) throws -> [UInt8]? {
        try state.get("payloads", Key.joined(namespace, name))
    }

    /// Every named payload of the namespace, by name, as given.
    func payloads(namespace: String) throws -> [(name: String, payload: [UInt8])] {
        var found: [(name: String, payload: [UInt8])] = []
        try state.scan("payloads", prefix: Key.joined(namespace)) { key, value in
            found.append((Key.components(key).last ?? "", Array(value)))
            return true
        }
        return found
    }
}
