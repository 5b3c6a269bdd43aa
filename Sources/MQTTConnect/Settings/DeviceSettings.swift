import MusterWire

/// The MQTT Connect app's settings as seed 001's settings message and receipt write them; absent members are
/// left unchanged by a settings message and left out of the JSON.
public struct DeviceSettings: Sendable, Hashable, Codable {
    /// The topics the device listens on (where Muster publishes to it).
    public var subscribeTopic: [String]?
    /// The topic the device publishes on (where Muster listens).
    public var publishTopic: String?
    /// Whether the device publishes its sensor values on every incoming message.
    public var onIncoming: Bool?
    /// Whether the device publishes its sensor values every `intervalCycle`.
    public var onInterval: Bool?
    /// Whether interval publishing happens only when a value changed.
    public var intervalOnChange: Bool?
    /// Whether the device publishes when a value crosses `thresholdValue`.
    public var onThreshold: Bool?
    /// The publishing interval (the seed's example: 500).
    public var intervalCycle: Int?
    /// The threshold of `onThreshold` (the seed's example: 100).
    public var thresholdValue: Double?

    /// Creates settings; every member defaults to absent.
    public init(
        subscribeTopic: [String]? = nil, publishTopic: String? = nil, onIncoming: Bool? = nil, onInterval: Bool? = nil,
        intervalOnChange: Bool? = nil, onThreshold: Bool? = nil, intervalCycle: Int? = nil,
        thresholdValue: Double? = nil
    ) {
        self.subscribeTopic = subscribeTopic
        self.publishTopic = publishTopic
        self.onIncoming = onIncoming
        self.onInterval = onInterval
        self.intervalOnChange = intervalOnChange
        self.onThreshold = onThreshold
        self.intervalCycle = intervalCycle
        self.thresholdValue = thresholdValue
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case subscribeTopic = "SubscribeTopic"
        case publishTopic = "PublishTopic"
        case onIncoming = "OnIncoming"
        case onInterval = "OnInterval"
        case intervalOnChange = "IntervalOnChange"
        case onThreshold = "OnThreshold"
        case intervalCycle = "IntervalCycle"
        case thresholdValue = "ThresholdValue"
    }

    /// The member names, as the seed spells them.
    public static let keys: [String] = CodingKeys.allCases.map(\.rawValue)

    /// Decodes the seed's shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subscribeTopic = try container.decodeIfPresent([String].self, forKey: .subscribeTopic)
        publishTopic = try container.decodeIfPresent(String.self, forKey: .publishTopic)
        onIncoming = try container.decodeIfPresent(Bool.self, forKey: .onIncoming)
        onInterval = try container.decodeIfPresent(Bool.self, forKey: .onInterval)
        intervalOnChange = try container.decodeIfPresent(Bool.self, forKey: .intervalOnChange)
        onThreshold = try container.decodeIfPresent(Bool.self, forKey: .onThreshold)
        intervalCycle = try container.decodeIfPresent(Int.self, forKey: .intervalCycle)
        thresholdValue = try container.decodeIfPresent(Double.self, forKey: .thresholdValue)
    }

    /// Encodes the seed's shape; a whole threshold without a fraction (`100`, as the seed writes it).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(subscribeTopic, forKey: .subscribeTopic)
        try container.encodeIfPresent(publishTopic, forKey: .publishTopic)
        try container.encodeIfPresent(onIncoming, forKey: .onIncoming)
        try container.encodeIfPresent(onInterval, forKey: .onInterval)
        try container.encodeIfPresent(intervalOnChange, forKey: .intervalOnChange)
        try container.encodeIfPresent(onThreshold, forKey: .onThreshold)
        try container.encodeIfPresent(intervalCycle, forKey: .intervalCycle)
        try container.encodeIfPresent(thresholdValue.map(JSONValue.number), forKey: .thresholdValue)
    }
}
