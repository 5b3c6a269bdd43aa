/// The MQTT bridge of a running server (`GET /api/v1/mqtt/status`, `muster mqtt status`).
public struct MQTTStatus: Sendable, Hashable, Codable {
    /// The broker, `host:port`.
    public var broker: String
    /// The connection now: connected, reconnecting (with why), or not connected.
    public var state: String
    /// The client id whose persistent session the broker keeps.
    public var clientId: String
    /// The MQTT devices the bridge listens to.
    public var devices: Int
    /// The topic filters subscribed.
    public var subscriptions: [String]
    /// What the bridge did since the server started.
    public var counts: MQTTBridgeCounts
    /// The log position through which response topics are published and acknowledged by the broker: after a
    /// restart or a crash, what comes later is published (again). Nil when response topics are not published.
    public var topicsPublishedThrough: UInt64?

    public init(
        broker: String, state: String, clientId: String, devices: Int, subscriptions: [String],
        counts: MQTTBridgeCounts,
        topicsPublishedThrough: UInt64? = nil
    ) {
        self.broker = broker
        self.state = state
        self.clientId = clientId
        self.devices = devices
        self.subscriptions = subscriptions
        self.counts = counts
        self.topicsPublishedThrough = topicsPublishedThrough
    }
}

/// What the MQTT bridge did since the server started.
public struct MQTTBridgeCounts: Sendable, Hashable, Codable {
    /// Messages recorded as `DeviceDataReported`.
    public var recorded = 0
    /// Redeliveries (the same message again within the window), not recorded again.
    public var duplicates = 0
    /// Messages not recorded: not JSON, too large, from a topic no device publishes on, odd members.
    public var refused = 0
    /// Parts of recorded messages the domain refused (a reply to an answered message, a GPS fix out of range).
    public var refusedParts = 0
    /// Replies recorded as responses.
    public var responses = 0
    /// DialogMessages, settings messages and response topics' documents the broker acknowledged.
    public var published = 0
    /// Publishes that failed (not connected, refused, no acknowledgement in time).
    public var publishFailures = 0

    public init() {}
}

/// `POST /api/v1/mqtt/devices/{deviceId}/settings`: a settings message to an MQTT device (`muster mqtt settings`).
public struct MQTTSettingsBody: Sendable, Hashable, Codable {
    /// The device's user.
    public var user: String
    /// The settings as the operator types them, `KEY=VALUE` (`OnInterval=true`, `SubscribeTopic=a/b,c/d`).
    public var settings: [String]

    public init(user: String, settings: [String]) {
        self.user = user
        self.settings = settings
    }
}

/// What a device answered a settings message with: its settings after the change (the seed's receipt), or nil
/// when it sent no receipt in time.
public struct MQTTSettingsAnswer: Sendable, Hashable, Codable {
    public var deviceId: String
    public var receipt: [String: JSONValue]?

    public init(deviceId: String, receipt: [String: JSONValue]?) {
        self.deviceId = deviceId
        self.receipt = receipt
    }

    private enum CodingKeys: String, CodingKey { case deviceId, receipt }

    /// Writes `receipt` as null when none came, as documented, rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(receipt, forKey: .receipt)
    }
}
