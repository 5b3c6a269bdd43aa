import Foundation

/// `areaEntered` / `areaExited` on a device's live stream: the raw event, whatever the rules then decide.
public struct AreaCrossing: Sendable, Hashable, Codable {
    public var area: String
    /// `geofence` or `beacon`.
    public var kind: String
    /// `on_entry` or `on_exit`.
    public var trigger: String
    /// What detected it: `location`, `beacon` or `device`.
    public var source: String
    /// When, ISO 8601.
    public var at: String
    public var latitude: Double?
    public var longitude: Double?
    /// The beacon's proximity, for beacon regions.
    public var proximity: String?

    /// Creates a crossing.
    public init(
        area: String, kind: String, trigger: String, source: String, at: String, latitude: Double?,
        longitude: Double?, proximity: String?
    ) {
        self.area = area
        self.kind = kind
        self.trigger = trigger
        self.source = source
        self.at = at
        self.latitude = latitude
        self.longitude = longitude
        self.proximity = proximity
    }
}

/// `positionChanged` on a device's live stream: the position the server has for the device.
public struct PositionChange: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres, when the device gave it.
    public var accuracy: Double?
    public var at: String

    /// Creates a position change.
    public init(latitude: Double, longitude: Double, accuracy: Double?, at: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.at = at
    }
}

/// `trace` on a device's live stream (trace logging on): a rule decided not to act, and why.
public struct TraceMessage: Sendable, Hashable, Codable {
    /// One line, e.g. `not acting: rule r of geofence shop (on_entry): event 2 for this area, max_events is 1 (reached)`.
    public var message: String
    public var area: String
    public var rule: String
    /// When the rule decided, ISO 8601.
    public var at: String

    /// Creates a trace message.
    public init(message: String, area: String, rule: String, at: String) {
        self.message = message
        self.area = area
        self.rule = rule
        self.at = at
    }
}
