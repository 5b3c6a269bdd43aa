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
    public var eventTypes: Set<String>? { [RequestTemplateStored.type, RequestTemplateRemoved.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let stored = try RequestTemplateStored.decode(event) {
            try state.put("templates", Key.joined(event.namespace, stored.name), event.body.bytes)
        } else if let gone = try RequestTemplateRemoved.decode(event) {
            try state.delete("templates", Key.joined(event.namespace, gone.name))
        }
    }
}

extension LogSnapshot {
    /// The request templates in this snapshot.
    var requestTemplates: ProjectionView<RequestProjection> { get throws { try view(RequestProjection()) } }
}

extension ProjectionView<RequestProjection> {
    /// The template named `name`, or nil.
    func template(_ name: String, namespace: String) throws -> RequestTemplateStored? {
        try event("templates", Key.joined(namespace, name))
    }

    /// Every template of the namespace, by name.
    func templates(namespace: String) throws -> [RequestTemplateStored] {
        try events("templates", prefix: Key.joined(namespace))
    }
}
