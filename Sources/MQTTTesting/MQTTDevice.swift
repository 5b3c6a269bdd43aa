import MQTT

/// An independent MQTT client playing a device (the MQTT Connect phone) in tests: its own connection and an inbox of
/// everything it received.
public final class MQTTDevice: Sendable {
    /// The device's connection.
    public let client: MQTTClient
    /// What it received on its subscriptions.
    public let inbox = MQTTInbox()

    /// Connects as `configuration` (see `MQTTBroker.configuration(user:clientID:…)`).
    public init(_ configuration: MQTTConfiguration) async throws {
        let inbox = inbox
        client = try MQTTClient(configuration) { batch in inbox.record(batch) }
        try await client.connect()
    }

    /// Subscribes to `filters` with QoS 1.
    public func subscribe(_ filters: String...) async throws {
        try await client.subscribe(filters)
    }

    /// Publishes UTF-8 `text` with QoS 1 and waits for PUBACK.
    public func publish(_ text: String, to topic: String, retain: Bool = false) async throws {
        try await client.publish(topic: topic, payload: Array(text.utf8), retain: retain)
    }

    /// Waits until at least `count` messages arrived in all, then returns all of them; throws after `timeout`.
    public func messages(count: Int, timeout: Duration = .seconds(10)) async throws -> [MQTTMessage] {
        try await inbox.wait(for: count, timeout: timeout)
    }

    /// Disconnects.
    public func close() async { await client.shutdown() }
}
