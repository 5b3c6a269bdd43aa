/// Where a connection to NATS stands.
public enum NATSConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Connected to a server.
    case connected
    /// The connection was lost; libnats tries the servers again, forever, `reconnectWait` apart. Requests fail with
    /// `unavailable` meanwhile.
    case reconnecting
    /// Closed by `close()`; nothing more happens.
    case closed

    /// The state in a word, for logs.
    public var description: String {
        switch self {
        case .connected: "connected"
        case .reconnecting: "reconnecting"
        case .closed: "closed"
        }
    }
}
