import Foundation

/// A rule's notification handed to a device's application (automatic user notifications off), or its server
/// notification URL (automatic server notifications off): `GET /api/v1/devices/{id}/notices`, and the
/// `areaNotification` event of the device's live stream. The app has the server perform it
/// (`POST /api/v1/notices/{id}/perform`) or dismisses it.
public struct AreaNotification: Sendable, Hashable, Codable {
    /// `notifyUser`: the notification to show (or have sent); `notifyServer`: the URL to call.
    public enum Action: String, Sendable, Hashable, Codable {
        case notifyUser, notifyServer
    }

    public var id: UUID
    public var action: Action
    public var deviceId: String
    /// The area (`geofence` or `beacon`, and its id), rule and trigger that fired.
    public var areaKind: String
    public var area: String
    public var rule: String
    public var trigger: String
    /// When the rule decided, ISO 8601.
    public var at: String
    /// The notification's title and text (empty for `notifyServer`).
    public var title: String
    public var body: String
    /// The page or wallet pass the notification opens.
    public var openURL: String?
    public var openPBK: String?
    /// The rule's application data (`notify_user.payload`).
    public var data: JSONValue?
    /// The server notification URL (`notifyServer`).
    public var serverURL: String?

    /// Creates a notice as the server sends it.
    public init(
        id: UUID, action: Action, deviceId: String, areaKind: String, area: String, rule: String, trigger: String,
        at: String, title: String, body: String, openURL: String?, openPBK: String?, data: JSONValue?,
        serverURL: String?
    ) {
        self.id = id
        self.action = action
        self.deviceId = deviceId
        self.areaKind = areaKind
        self.area = area
        self.rule = rule
        self.trigger = trigger
        self.at = at
        self.title = title
        self.body = body
        self.openURL = openURL
        self.openPBK = openPBK
        self.data = data
        self.serverURL = serverURL
    }
}

/// What performing or dismissing a notice did: `POST /api/v1/notices/{id}/perform` and `…/dismiss`.
public struct NoticeOutcome: Sendable, Hashable, Codable {
    /// `performed` or `dismissed`.
    public var state: String
    public var id: UUID
    /// The inbox message the notification went out as (performed `notifyUser`).
    public var messageId: UUID?
    /// The URL the server called (performed `notifyServer`), and what the rule then decided.
    public var serverURL: String?
    public var outcomes: [LocationAnswer.Outcome]?

    /// Creates an outcome.
    public init(
        state: String, id: UUID, messageId: UUID? = nil, serverURL: String? = nil,
        outcomes: [LocationAnswer.Outcome]? = nil
    ) {
        self.state = state
        self.id = id
        self.messageId = messageId
        self.serverURL = serverURL
        self.outcomes = outcomes
    }
}

extension AreaNotification {
    private enum CodingKeys: String, CodingKey {
        case id, action, deviceId, areaKind, area, rule, trigger, at, title, body, openURL, openPBK, data, serverURL
    }

    /// Encodes as the server writes it: the id in lower case, as every other id the API sends.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(action, forKey: .action)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(areaKind, forKey: .areaKind)
        try container.encode(area, forKey: .area)
        try container.encode(rule, forKey: .rule)
        try container.encode(trigger, forKey: .trigger)
        try container.encode(at, forKey: .at)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(openURL, forKey: .openURL)
        try container.encodeIfPresent(openPBK, forKey: .openPBK)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(serverURL, forKey: .serverURL)
    }
}

extension NoticeOutcome {
    private enum CodingKeys: String, CodingKey { case state, id, messageId, serverURL, outcomes }

    /// Encodes as the server writes it: the ids in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encodeIfPresent(messageId?.uuidString.lowercased(), forKey: .messageId)
        try container.encodeIfPresent(serverURL, forKey: .serverURL)
        try container.encodeIfPresent(outcomes, forKey: .outcomes)
    }
}
