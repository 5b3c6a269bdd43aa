import EventLog
import Forms
import Foundation
import MusterWire

extension Notifications {
    /// Something a topic listener receives.
    public struct TopicDelivery: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            /// A response object, answering a message or a request template.
            case response
            /// A document published on the topic (`publish`).
            case publish
        }
        /// Log position of the event: a listener that reconnects resumes after it.
        public var position: UInt64
        public var kind: Kind
        public var topic: String
        /// The JSON text delivered.
        public var json: Data
    }

    /// Publishes a JSON document on `topic`; listeners receive it as is. Returns the log position.
    @discardableResult
    public func publish(
        _ document: Data, on topic: String, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> UInt64 {
        try Names.validate(namespace, as: "namespace")
        guard ResponseTopic.isValid(topic), !topic.contains("+"), !topic.contains("#") else {
            throw MusterError(
                .invalidArgument,
                "topic \(String(reflecting: topic)) is not of the form /a/b/c (+ and # only filter, they cannot be published on)"
            )
        }
        let compact = try JSONValue(json: document).jsonData()
        let event = TopicPublished(topic: topic, document: Array(compact))
        return try await log.perform { scope in
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.topic(topic), events: [event.newEvent(actor: actor)])
            )
            .lastPosition
        }
    }

    /// The response objects and published documents on topics matching `filter`, as they are
    /// recorded — by this process or another one on the same data directory — until the consumer stops.
    /// - Parameter from: first log position to consider; nil for what is recorded from now on.
    public func listen(_ filter: TopicFilter, namespace: String = Names.defaultNamespace, from: UInt64? = nil)
        -> some AsyncSequence<TopicDelivery, any Error> & Sendable
    {
        follow(namespace: namespace, types: [ResponseReceived.type, TopicPublished.type], from: from) { event in
            if let response = try ResponseReceived.decode(event), filter.matches(response.responseTopic) {
                return TopicDelivery(
                    position: event.position, kind: .response, topic: response.responseTopic,
                    json: Data(response.response))
            }
            if let published = try TopicPublished.decode(event), filter.matches(published.topic) {
                return TopicDelivery(
                    position: event.position, kind: .publish, topic: published.topic, json: Data(published.document))
            }
            return nil
        }
    }

    /// The namespace's events of `types` from `from` (nil: from now on), live, mapped by `transform` (nil: skipped),
    /// read as the consumer asks for them.
    func follow<Element: Sendable>(
        namespace: String, types: Set<String>, from: UInt64?,
        _ transform: @escaping @Sendable (RecordedEvent) throws -> Element?
    ) -> some AsyncSequence<Element, any Error> & Sendable {
        log.follow(EventQuery(namespace: namespace, types: types, from: from ?? (log.head + 1))).compactMap(transform)
    }
}
