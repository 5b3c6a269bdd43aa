import Foundation
import MusterWire

/// An event of a live stream and where it stands in the server's log.
public struct LiveEvent<Event: Sendable & Hashable>: Sendable, Hashable {
    /// The event's log position (its SSE `id`); pass it as `after:` to resume there in a later run.
    public var position: String
    /// What happened.
    public var event: Event

    /// Creates a live event.
    public init(position: String, event: Event) {
        self.position = position
        self.event = event
    }
}

/// What happens in a user's inbox: a message arrives, one is answered (from any of the user's devices), or one is
/// withdrawn by its sender.
public enum InboxEvent: Sendable, Hashable {
    /// A new message (`event: message`).
    case message(InboxItem)
    /// A message was answered and leaves the inbox (`event: answered`).
    case answered(messageId: UUID)
    /// A message was withdrawn by its sender and leaves the inbox (`event: withdrawn`).
    case withdrawn(messageId: UUID)

    /// Reads an inbox stream event; nil for an event type this client does not know (a newer server's).
    static func decode(_ event: ServerSentEvent) throws(MusterClientError) -> InboxEvent? {
        switch event.type {
        case "message":
            return .message(try decodeData(InboxItem.self, event))
        case "answered":
            return .answered(messageId: try decodeData(Answered.self, event).messageId)
        case "withdrawn":
            return .withdrawn(messageId: try decodeData(Answered.self, event).messageId)
        default:
            return nil
        }
    }

    /// The data of `answered` and `withdrawn`.
    private struct Answered: Decodable {
        var messageId: UUID
    }
}

/// What a topic stream delivers.
public enum TopicEvent: Sendable, Hashable {
    /// A response object published on the topic (`event: response`).
    case response(ResponseObject)
    /// A document published on the topic, as it was published (`event: publish`).
    case publish(JSONValue)

    /// Reads a topic stream event; nil for an event type this client does not know (a newer server's).
    static func decode(_ event: ServerSentEvent) throws(MusterClientError) -> TopicEvent? {
        switch event.type {
        case "response":
            return .response(try decodeData(ResponseObject.self, event))
        case "publish":
            return .publish(try decodeData(JSONValue.self, event))
        default:
            return nil
        }
    }
}

/// Decodes an event's `data` as JSON.
func decodeData<T: Decodable>(_ type: T.Type, _ event: ServerSentEvent) throws(MusterClientError) -> T {
    do {
        return try MusterJSON.decoder().decode(T.self, from: Data(event.data.utf8))
    } catch {
        throw .invalidResponse("the stream's \(event.type) event at \(event.lastEventId)", error)
    }
}
