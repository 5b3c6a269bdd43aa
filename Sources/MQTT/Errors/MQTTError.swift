import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

/// An error of the MQTT client, naming the broker, topic or field and what was expected. Never holds a password.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; stable for programs, extensible without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case configuration, unreachable, refused, notConnected, timedOut, publishRefused, subscribeRefused
            case library, stopped
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// A configuration value or broker URL is not acceptable.
        public static let configuration = Code(.configuration)
        /// The broker's host could not be resolved or did not accept the TCP (or TLS) connection.
        public static let unreachable = Code(.unreachable)
        /// The broker answered CONNECT with a refusal (bad user name or password, not authorised, …).
        public static let refused = Code(.refused)
        /// The client is not connected to the broker now (it may be reconnecting).
        public static let notConnected = Code(.notConnected)
        /// The broker did not answer within the time the caller gave.
        public static let timedOut = Code(.timedOut)
        /// The broker acknowledged a publish with a failure reason code (MQTT 5 only).
        public static let publishRefused = Code(.publishRefused)
        /// The broker granted no subscription to a topic filter.
        public static let subscribeRefused = Code(.subscribeRefused)
        /// A libmosquitto call failed.
        public static let library = Code(.library)
        /// The client was shut down.
        public static let stopped = Code(.stopped)

        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// One line saying what failed, with the broker, topic or field and the reason.
    public let message: String
    /// The MQTT reason code (CONNACK, PUBACK or SUBACK) when the broker gave one.
    public let reasonCode: Int?

    init(_ code: Code, _ message: String, reasonCode: Int? = nil) {
        self.code = code
        self.message = message
        self.reasonCode = reasonCode
    }

    public var description: String { message }

    static func configuration(_ message: String) -> MQTTError { MQTTError(.configuration, message) }

    /// Wraps a libmosquitto return code, naming the call; `errno` is read for MOSQ_ERR_ERRNO.
    static func library(_ rc: Int32, _ call: String) -> MQTTError {
        MQTTError(.library, "\(call) failed: \(libraryText(rc)) (\(rc))")
    }

    /// The text of a libmosquitto return code, with the system's text for MOSQ_ERR_ERRNO.
    static func libraryText(_ rc: Int32, errno savedErrno: Int32 = errno) -> String {
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return String(cString: strerror(savedErrno)) }
        return String(cString: mosquitto_strerror(rc))
    }

    /// The reason a broker refused a connection, in words, from a CONNACK code of `version`.
    static func refusalText(_ reasonCode: Int, _ version: MQTTProtocolVersion) -> String {
        switch (version, reasonCode) {
        case (.v311, 1), (.v5, 0x84): "the broker does not support this MQTT protocol version"
        case (.v311, 2), (.v5, 0x85): "the broker refused the client id"
        case (.v311, 3), (.v5, 0x88), (.v5, 0x89): "the broker is unavailable"
        case (.v311, 4), (.v5, 0x86): "the broker refused the user name or password (bad user name or password)"
        case (.v311, 5), (.v5, 0x87):
            "the broker refused the user name or password (not authorised: wrong password, unknown user, or a user "
                + "not allowed to connect)"
        case (.v5, 0x8A): "the broker banned this client"
        case (.v5, 0x95): "the broker refused the packet size"
        case (.v5, 0x97): "the broker's quota is exceeded"
        default: "the broker refused the connection with reason code \(reasonCode)"
        }
    }

    /// The reason a broker refused a publish or subscription, in words, from an MQTT 5 reason code.
    static func reasonText(_ reasonCode: Int) -> String {
        switch reasonCode {
        case 0x10: "no subscribers matched"
        case 0x80: "unspecified error"
        case 0x83: "implementation specific error"
        case 0x87: "not authorised"
        case 0x8F: "topic filter invalid"
        case 0x90: "topic name invalid"
        case 0x91: "packet identifier in use"
        case 0x97: "quota exceeded"
        case 0x99: "payload format invalid"
        case 0x9E: "shared subscriptions not supported"
        case 0xA1: "subscription identifiers not supported"
        case 0xA2: "wildcard subscriptions not supported"
        default: "reason code \(reasonCode)"
        }
    }
}
