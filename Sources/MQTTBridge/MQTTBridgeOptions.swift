import Foundation
import MQTT

/// How `muster serve --mqtt` connects the bridge: the broker, and what it accepts from devices.
public struct MQTTBridgeOptions: Sendable {
    /// The broker connection: URL, user name and password (never logged), TLS, the client id whose persistent
    /// session keeps QoS 1 messages for Muster while it is away.
    public var connection: MQTTConfiguration
    /// The largest message a device may publish; larger ones are counted as refused, unread.
    public var sizeLimit = 10 * 1024 * 1024
    /// Where the response topics of payloads (`/a/b/c`) are published, under this prefix (`muster` gives
    /// `muster/a/b/c`); nil: they are not published.
    public var topicPrefix: String? = "muster"
    /// How long a first connection is waited for before it is tried again.
    public var connectTimeout: Duration = .seconds(10)
    /// How long `muster mqtt settings` waits for the device's receipt.
    public var receiptTimeout: Duration = .seconds(30)

    public init(connection: MQTTConfiguration) {
        self.connection = connection
    }
}
