/// One application message received from the broker.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic it was published to.
    public var topic: String
    /// The payload bytes as published.
    public var payload: [UInt8]
    /// The QoS it was delivered with (at most the subscription's).
    public var qos: MQTTQoS
    /// Whether the broker sent it as a retained message (on subscribing).
    public var retain: Bool
    /// The packet identifier of a QoS 1 delivery (0 for QoS 0). Identifiers are reused; this is not a message id.
    public var packetID: Int
}

/// The MQTT quality of service levels this client uses.
public enum MQTTQoS: Int, Sendable, Hashable {
    /// Sent once, not acknowledged.
    case atMostOnce = 0
    /// Acknowledged by PUBACK; may arrive more than once.
    case atLeastOnce = 1
}
