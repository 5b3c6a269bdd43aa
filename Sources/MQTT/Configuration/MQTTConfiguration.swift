/// How to reach one MQTT broker and what session to keep there.
///
/// The password is held for libmosquitto only: it never appears in `description`, a log line or an error text.
public struct MQTTConfiguration: Sendable, CustomStringConvertible {
    /// The broker's host name or address.
    public var host: String
    /// The broker's TCP port (1883 for plain MQTT, 8883 for MQTT over TLS by convention).
    public var port: Int
    /// The user name sent in CONNECT, or nil to connect anonymously.
    public var userName: String?
    /// The password sent in CONNECT; only with a user name.
    public var password: String?
    /// TLS settings, or nil for plain TCP.
    public var tls: MQTTTLS?
    /// MQTT 5 or 3.1.1.
    public var protocolVersion: MQTTProtocolVersion
    /// The client id; the broker keeps a persistent session under it.
    public var clientID: String
    /// Seconds between keepalive pings: 0 (none) or 5…65535.
    public var keepalive: Int
    /// Whether the broker keeps the session (subscriptions and queued QoS 1 messages) while the client is away:
    /// clean session false in 3.1.1; clean start false and a session expiry interval in MQTT 5.
    public var session: MQTTSession
    /// The wait before the first reconnect attempt; it doubles each failed attempt up to `maximumReconnectDelay`.
    public var reconnectDelay: Duration
    /// The longest wait between reconnect attempts.
    public var maximumReconnectDelay: Duration
    /// How many QoS 1 messages the broker may have sent and not yet had acknowledged (MQTT 5 receive maximum).
    public var receiveMaximum: Int
    /// The largest batch handed to the message handler (at most `receiveMaximum`). Half the receive maximum by
    /// default: while one batch is handled, the broker can already send the next, which waits in the socket.
    public var batchLimit: Int

    /// A configuration with the defaults: MQTT 5, keepalive 60 s, a persistent session that never expires,
    /// reconnect after 1 s doubling up to 30 s, receive maximum 2,000 in batches of up to 1,000.
    public init(
        host: String, port: Int = 1883, clientID: String, userName: String? = nil, password: String? = nil,
        tls: MQTTTLS? = nil, protocolVersion: MQTTProtocolVersion = .v5, keepalive: Int = 60,
        session: MQTTSession = .persistent(expiry: nil), reconnectDelay: Duration = .seconds(1),
        maximumReconnectDelay: Duration = .seconds(30), receiveMaximum: Int = 2000, batchLimit: Int? = nil
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.userName = userName
        self.password = password
        self.tls = tls
        self.protocolVersion = protocolVersion
        self.keepalive = keepalive
        self.session = session
        self.reconnectDelay = reconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
        self.receiveMaximum = receiveMaximum
        self.batchLimit = batchLimit ?? max(1, receiveMaximum / 2)
    }

    /// `host:port`, the way errors and logs name the broker.
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The broker, protocol, client id and user name; never the password.
    public var description: String {
        let scheme = tls == nil ? "mqtt" : "mqtts"
        let user = userName.map { " user \($0)\(password == nil ? "" : " (password set)")" } ?? ""
        return "\(scheme)://\(address) \(protocolVersion) client id \(clientID)\(user)"
    }

    /// Checks the values libmosquitto would refuse, naming the field and what it expects.
    func validate() throws {
        guard !host.isEmpty else { throw MQTTError.configuration("host is empty; expected a host name or address") }
        guard (1...65535).contains(port) else {
            throw MQTTError.configuration("port \(port) is out of range; expected 1…65535")
        }
        guard keepalive == 0 || (5...65535).contains(keepalive) else {
            throw MQTTError.configuration("keepalive \(keepalive) s is out of range; expected 0 or 5…65535 seconds")
        }
        guard !clientID.isEmpty, clientID.utf8.count <= 65535 else {
            throw MQTTError.configuration("client id is empty or too long; expected 1…65535 bytes")
        }
        guard password == nil || userName != nil else {
            throw MQTTError.configuration("a password is set without a user name; expected both or neither")
        }
        guard (1...65535).contains(receiveMaximum) else {
            throw MQTTError.configuration("receive maximum \(receiveMaximum) is out of range; expected 1…65535")
        }
        guard (1...receiveMaximum).contains(batchLimit) else {
            throw MQTTError.configuration(
                "batch limit \(batchLimit) is out of range; expected 1…\(receiveMaximum) (the receive maximum)")
        }
        guard reconnectDelay > .zero, maximumReconnectDelay >= reconnectDelay else {
            throw MQTTError.configuration(
                "reconnect delays \(reconnectDelay)…\(maximumReconnectDelay) are not acceptable; expected 0 < delay ≤ maximum"
            )
        }
    }
}

/// The MQTT protocol version spoken to the broker.
public enum MQTTProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    /// MQTT 5: reason codes in CONNACK, SUBACK and PUBACK (a refused publish is reported).
    case v5
    /// MQTT 3.1.1: a broker drops a publish it does not allow and still acknowledges it.
    case v311

    public var description: String { self == .v5 ? "MQTT 5" : "MQTT 3.1.1" }
}

/// Whether the broker keeps the client's session while it is disconnected.
public enum MQTTSession: Sendable, Hashable {
    /// A new, empty session on every connect; nothing is queued while away.
    case clean
    /// The broker keeps subscriptions and queues QoS 1 messages for the client id; `expiry` is how long after a
    /// disconnect (MQTT 5 session expiry interval; nil: never). MQTT 3.1.1 sessions follow the broker's settings.
    case persistent(expiry: Duration?)
}

/// TLS to the broker: the CA that signed its certificate and, when the broker wants one, a client certificate.
public struct MQTTTLS: Sendable, Hashable {
    /// A PEM file of the certificate authorities to trust.
    public var caFile: String
    /// A PEM client certificate, or nil.
    public var certificateFile: String?
    /// The PEM private key of `certificateFile` (not encrypted), or nil.
    public var keyFile: String?

    public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
