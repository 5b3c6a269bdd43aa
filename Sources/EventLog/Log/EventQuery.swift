/// Which events to read: all of them, or one stream, one type (or a few), one namespace, from a position on.
public struct EventQuery: Sendable, Hashable {
    /// Only events of this namespace (for a stream query: the stream's namespace, `default` when nil).
    public var namespace: String?
    /// Only events of this stream.
    public var stream: String?
    /// Only events of this type.
    public var type: String?
    /// Only events of one of these types (read through the type index, so a follower of a few types does not
    /// read every event).
    public var types: Set<String>?
    /// First position to consider.
    public var from: UInt64
    /// Most events to return.
    public var limit: Int?

    public init(
        namespace: String? = nil, stream: String? = nil, type: String? = nil, types: Set<String>? = nil,
        from: UInt64 = 1, limit: Int? = nil
    ) {
        self.namespace = namespace
        self.stream = stream
        self.type = type
        self.types = types
        self.from = from
        self.limit = limit
    }

    func matches(_ event: RecordedEvent) -> Bool {
        if let namespace, event.namespace != namespace { return false }
        if let stream, event.stream != stream { return false }
        if let type, event.type != type { return false }
        if let types, !types.contains(event.type) { return false }
        return event.position >= from
    }
}
