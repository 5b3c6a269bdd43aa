/// One event of a `text/event-stream`, as the HTML standard's EventSource dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field; `message` when the event had none.
    public var type: String
    /// The `data` fields joined by line feeds.
    public var data: String
    /// The last `id` the stream set, at or before this event; `""` when none was set (or it was reset).
    public var lastEventId: String

    /// Creates an event from its parts.
    public init(type: String = "message", data: String, lastEventId: String = "") {
        self.type = type
        self.data = data
        self.lastEventId = lastEventId
    }
}
