/// Where a client's connection to the broker stands.
public enum MQTTConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// The first connect is under way.
    case connecting
    /// CONNACK accepted; `sessionPresent` is true when the broker resumed a stored session.
    case connected(sessionPresent: Bool)
    /// The connection was lost or refused; the client tries again after a backoff. `attempt` counts the failed
    /// attempts since the last successful connect.
    case reconnecting(reason: String, attempt: Int)
    /// Shut down, or the first connect failed; nothing more happens.
    case stopped(reason: String)

    /// True while CONNACK stands accepted.
    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected(let sessionPresent): sessionPresent ? "connected (session resumed)" : "connected (new session)"
        case .reconnecting(let reason, let attempt): "reconnecting (attempt \(attempt)): \(reason)"
        case .stopped(let reason): "stopped: \(reason)"
        }
    }
}

/// What a client has done since it was made, for `muster mqtt status` and metrics.
public struct MQTTCounters: Sendable, Hashable {
    /// Messages received from the broker and handed to the handler.
    public var messagesReceived = 0
    /// Batches handed to the handler (each acknowledged only after the handler returned).
    public var batchesHandled = 0
    /// Publishes the broker acknowledged (QoS 1) or that were written to the socket queue (QoS 0).
    public var messagesPublished = 0
    /// Publishes the broker acknowledged with a failure reason code (MQTT 5).
    public var publishesRefused = 0
    /// Publishes whose acknowledgement did not come within the caller's timeout.
    public var publishesTimedOut = 0
    /// Publishes refused at once because the client was not connected.
    public var publishesNotConnected = 0
    /// Successful connects (CONNACK accepted), the first one included.
    public var connects = 0
    /// Connections lost after they were established.
    public var disconnects = 0
    /// Connect attempts the broker refused (CONNACK with a failure code).
    public var connectsRefused = 0
    /// Connect attempts that did not reach the broker.
    public var connectsFailed = 0
    /// Topic filters the broker refused to subscribe.
    public var subscriptionsRefused = 0
    /// Times the broker gave the session to another connection with the same client id: it said so (MQTT 5
    /// DISCONNECT 0x8E, session taken over), or — as mosquitto 2.0, which just closes the connection — it closed
    /// `MQTTClient.takeoverSign` connections in a row within seconds of accepting them.
    public var sessionsTakenOver = 0

    public init() {}
}
