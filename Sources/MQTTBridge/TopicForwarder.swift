import EventLog
import Foundation
import Logging
import Muster
import PushProviders

/// Publishes the response topics of payloads to MQTT (issue 14): each response object and each published document
/// on a topic `/a/b/c` of the default namespace goes to `<prefix>/a/b/c` with QoS 1, as the JSON a Server-Sent
/// Events listener of the topic receives, so an MQTT rule engine can listen the way an SSE client does.
///
/// It saves how far it got (`EventLog.followerPosition`, after each document the broker took), so after a restart or
/// a crash it goes on from there: what was recorded meanwhile, even while Muster was down, is published; a document
/// whose acknowledgement came just before a crash may be published again (at least once, as QoS 1 is). On its very
/// first run it starts at the head (what was recorded before the bridge was configured is not published). While
/// the broker is away it waits and tries the same document again; a document the broker refuses is logged and
/// passed over.
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

    /// The name its position is saved under.
    static let followerName = "mqtt.topicForwarder"
    /// How far past the saved position a response without a topic document may be before the position is saved
    /// anyway, so a restart does not read so much again.
    static let saveEvery: UInt64 = 10_000

    /// Forwards what is recorded after the saved position, or from `start` on the first run, until cancelled.
    func run(from start: UInt64) async {
        do {
            var saved: UInt64
            if let position = try log.followerPosition(Self.followerName) {
                saved = position
            } else {
                saved = start - 1
                try await save(saved)
            }
            let documents = EventQuery(
                namespace: Self.namespace, types: [ResponseReceived.type, TopicPublished.type], from: saved + 1)
            for try await event in log.follow(documents) {
                if let (topic, json) = try Self.document(in: event) {
                    // Not done when cancelled before the broker took it: the next run publishes it.
                    guard await forward(json, to: mqttTopic(topic)) else { return }
                } else if event.position - saved < Self.saveEvery {
                    continue
                }
                saved = event.position
                try await save(saved)
            }
        } catch is CancellationError {
        } catch {
            logger.error("MQTT bridge stopped publishing response topics: \(error)")
        }
    }

    private func save(_ position: UInt64) async throws {
        try Task.checkCancellation()
        try await log.perform { try $0.saveFollowerPosition(Self.followerName, position) }
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

    /// Publishes one document, trying again with a growing pause while the broker is away; false when cancelled
    /// before the broker took or refused it.
    private func forward(_ json: [UInt8], to topic: String) async -> Bool {
        var pause = Duration.milliseconds(200)
        while !Task.isCancelled {
            switch await publish(topic, json) {
            case .delivered: return true
            case .retry(_, let reason, _):
                logger.debug("MQTT bridge will publish \(topic) again: \(reason)")
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            case .rejected(_, let reason), .unregistered(_, let reason):
                logger.error("MQTT broker refused the document for \(topic): \(reason)")
                return true
            }
        }
        return false
    }
}
