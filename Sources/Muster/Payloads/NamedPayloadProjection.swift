import EventLog

/// Named payloads of every namespace, kept inline so a send checks a `payloadName` in the same
/// transaction as it appends.
///
/// Tables (keys `namespace 0 name 0`): `payloads` → the payload's JSON text; `removed` → the JSON text a removed
/// payload had, for the messages sent by its name before (version 2).
public struct NamedPayloadProjection: Projection {
    public static let name = "namedPayloads"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["payloads", "removed"] }
    public var eventTypes: Set<String>? { [NamedPayloadStored.type, NamedPayloadRemoved.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let stored = try NamedPayloadStored.decode(event) {
            let key = Key.joined(event.namespace, stored.name)
            try state.put("payloads", key, stored.payload)
            try state.delete("removed", key)
        } else if let gone = try NamedPayloadRemoved.decode(event) {
            let key = Key.joined(event.namespace, gone.name)
            guard let payload = try state.get("payloads", key) else { return }
            try state.put("removed", key, payload)
            try state.delete("payloads", key)
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

    /// What a message sent by `name` shows: the payload stored under it, or the one it had when it was removed.
    func shown(_ name: String, namespace: String) throws -> [UInt8]? {
        try payload(name, namespace: namespace) ?? state.get("removed", Key.joined(namespace, name))
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
