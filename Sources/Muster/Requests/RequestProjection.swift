import EventLog

/// Request templates of every namespace, kept inline so answering one reads it in the same
/// transaction as it appends.
///
/// Table `templates`: `namespace 0 name 0` → `RequestTemplateStored` body.
public struct RequestProjection: Projection {
    public static let name = "requests"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["templates"] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let stored = try RequestTemplateStored.decode(event) {
            try state.put("templates", DirectoryProjection.key(event.namespace, stored.name), event.body.bytes)
        }
    }
}
