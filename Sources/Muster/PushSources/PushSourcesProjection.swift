import EventLog

/// The push sources of every namespace, kept inline so a send decides its deliveries in its own transaction:
///
/// - `sources`: `ns 0 name` → `PushSourceConfigured` body.
public struct PushSourcesProjection: Projection {
    public static let name = "pushSources"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["sources"] }
    public var eventTypes: Set<String>? { [PushSourceConfigured.type, PushSourceRemoved.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let source = try PushSourceConfigured.decode(event) {
            try state.put("sources", Key.joined(event.namespace, source.name), event.body.bytes)
        } else if let gone = try PushSourceRemoved.decode(event) {
            try state.delete("sources", Key.joined(event.namespace, gone.name))
        }
    }
}

extension LogSnapshot {
    /// Every namespace's push sources in this snapshot.
    var pushSources: ProjectionView<PushSourcesProjection> { get throws { try view(PushSourcesProjection()) } }
}

extension ProjectionView<PushSourcesProjection> {
    /// The source named `name`; nil when there is none.
    func source(_ name: String, namespace: String) throws -> PushSourceConfigured? {
        try event("sources", Key.joined(namespace, name))
    }

    /// The namespace's sources, by name.
    func sources(namespace: String) throws -> [PushSourceConfigured] {
        try events("sources", prefix: Key.joined(namespace))
    }
}
