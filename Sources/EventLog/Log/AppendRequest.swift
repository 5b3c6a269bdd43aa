/// Events to append to one stream, all or none, under an expected version.
public struct AppendRequest: Sendable, Hashable {
    public var namespace: String
    public var stream: String
    public var expectedVersion: ExpectedVersion
    public var events: [NewEvent]

    public init(
        namespace: String = Names.defaultNamespace, stream: String, expectedVersion: ExpectedVersion = .any,
        events: [NewEvent]
    ) {
        self.namespace = namespace
        self.stream = stream
        self.expectedVersion = expectedVersion
        self.events = events
    }
}

/// Where an append landed.
public struct AppendResult: Sendable, Hashable, Codable {
    /// Global position of each event, in order.
    public var positions: [UInt64]
    /// Stream version of the last event.
    public var version: UInt64
    /// True when every event id was already stored: nothing new was written.
    public var wasDuplicate: Bool

    /// Position of the last event.
    public var lastPosition: UInt64 { positions.last ?? 0 }
}
