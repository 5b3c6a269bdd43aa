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

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let stored = try NamedPayloadStored.decode(event) {
            try state.put("payloads", DirectoryProjection.key(event.namespace, stored.name), stored.payload)
        }
    }
}
