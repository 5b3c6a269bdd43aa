import EventLog
import Foundation
import Logging
import Muster
import PushProviders

/// Publishes the response topics of payloads to MQTT (issue 14): each response object and each published document
/// on a topic `/a/b/c` of the default namespace goes to `<prefix>/a/b/c` with QoS 1, as the JSON a Server-Sent
/// Events listener of the topic receives, so an MQTT rule engine can listen the way an SSE client does.
///
/// It follows the log from a position on (the bridge gives its start): what was recorded before is not sent
/// again after a restart. While the broker is away it waits and tries the same document again, so nothing recorded
/// while this process runs is skipped; a document the broker refuses is logged and passed over.
struct TopicForwarder: Sendable {
    let log: EventLog
    /// Put before the topic: `muster` gives `muster/a/b/c`.
    let prefix: String
    /// Publishes with QoS 1; the outcome as the delivery service would record it.
    let publish: @Sendable (_ topic: String, _ payload: [UInt8]) async -> PushOutcome
    let logger: Logger

    /// The namespace whose topics are published: other namespaces' listeners use Server-Sent Events, so tenants do
    /// not share one MQTT topic tree.
    static let namespace = Names.defaultNamespace

    /// The MQTT topic of a response topic.
    func mqttTopic(_ topic: String) -> String { prefix + topic }

    /// Forwards what is recorded from `position` on until cancelled.
    func run(from position: UInt64) async {
        do {
            for try await event in log.follow(EventQuery(namespace: Self.namespace, from: position)) {
                guard let (topic, json) = try Self.document(in: event) else { continue }
                await forward(json, to: mqttTopic(topic))
            }
        } catch is CancellationError {
        } catch {
            logger.error("MQTT bridge stopped publishing response topics: \(error)")
        }
    }

    /// The topic and JSON a topic listener receives for `event`, or nil when it carries none.
    static func document(in event: RecordedEvent) throws -> (topic: String, json: [UInt8])? {
        if let response = try ResponseReceived.decode(event) {
            guard response.responseTopic.hasPrefix("/") else { return nil }
            return (response.responseTopic, response.response)
        }
        if let published = try TopicPublished.decode(event) { return (published.topic, published.document) }
        return nil
    }

    /// Publishes one document, trying again with a growing pause while the broker is away.
    private func forward(_ json: [UInt8], to topic: String) async {
        var pause = Duration.milliseconds(200)
        while !Task.isCancelled {
            switch await publish(topic, json) {
            case .delivered: return
            case .retry(_, let reason, _):
                logger.debug("MQTT bridge will publish \(topic) again: \(reason)")
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            case .rejected(_, let reason), .unregistered(_, let reason):
                logger.error("MQTT broker refused the document for \(topic): \(reason)")
                return
            }
        }
    }
}
