import Foundation

/// One thing the log says happened to (or was done by) a person: what was sent, answered, changed.
public struct AuditEntry: Sendable, Hashable, Codable {
    /// What happened: one of the kinds below, or a kind a newer server added (kept as its name, so a client of
    /// this release still reads a whole audit list from a newer server).
    public struct What: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        public static let userCreated = What(rawValue: "userCreated")
        public static let passwordChanged = What(rawValue: "passwordChanged")
        public static let userChanged = What(rawValue: "userChanged")
        public static let userRemoved = What(rawValue: "userRemoved")
        public static let groupJoined = What(rawValue: "groupJoined")
        public static let groupLeft = What(rawValue: "groupLeft")
        public static let deviceRegistered = What(rawValue: "deviceRegistered")
        public static let deviceUnregistered = What(rawValue: "deviceUnregistered")
        public static let payloadSent = What(rawValue: "payloadSent")
        public static let responseReceived = What(rawValue: "responseReceived")
        public static let messageWithdrawn = What(rawValue: "messageWithdrawn")
        public static let documentUploaded = What(rawValue: "documentUploaded")
        public static let documentRemoved = What(rawValue: "documentRemoved")
        public static let loggedIn = What(rawValue: "loggedIn")
        public static let sessionRefreshed = What(rawValue: "sessionRefreshed")
        public static let loggedOut = What(rawValue: "loggedOut")
        public static let loginFailed = What(rawValue: "loginFailed")
        public static let areaDefined = What(rawValue: "areaDefined")
        public static let areaRemoved = What(rawValue: "areaRemoved")
        public static let areaTransition = What(rawValue: "areaTransition")
        public static let ruleEvaluated = What(rawValue: "ruleEvaluated")
        public static let geotriggerDefined = What(rawValue: "geotriggerDefined")
        public static let geotriggerRemoved = What(rawValue: "geotriggerRemoved")
        public static let geotriggerNotified = What(rawValue: "geotriggerNotified")
        public static let pushDelivered = What(rawValue: "pushDelivered")
        public static let pushFailed = What(rawValue: "pushFailed")
        public static let pushExpired = What(rawValue: "pushExpired")
        public static let locationRequested = What(rawValue: "locationRequested")
        public static let deviceDataReported = What(rawValue: "deviceDataReported")
        public static let replyRefused = What(rawValue: "replyRefused")
        public static let areaCountsChanged = What(rawValue: "areaCountsChanged")
        public static let areaNotificationHanded = What(rawValue: "areaNotificationHanded")
        public static let areaNotificationPerformed = What(rawValue: "areaNotificationPerformed")
        public static let areaNotificationDismissed = What(rawValue: "areaNotificationDismissed")
        public static let geotriggerMonitorStarted = What(rawValue: "geotriggerMonitorStarted")
        public static let geotriggerMonitorStopped = What(rawValue: "geotriggerMonitorStopped")
        public static let deviceTraceLoggingSet = What(rawValue: "deviceTraceLoggingSet")
        public static let primaryChanged = What(rawValue: "primaryChanged")
    }

    /// Position of the event that says so.
    public var position: UInt64
    /// When it was recorded: ISO 8601 in UTC with milliseconds, e.g. `2026-11-21T17:00:00.123Z`.
    public var time: String
    public var namespace: String
    public var what: What
    /// One sentence for a person.
    public var detail: String
    /// The user concerned (a recipient, the responder, the member, the device's owner, the uploader).
    public var user: String?
    /// Who did it (the sender, the event's actor).
    public var actor: String
    public var messageId: UUID?
    public var title: String?
    /// Recipients of a send (at most `Audit.recipientsShown`; `recipientCount` has the total).
    public var recipients: [String]?
    public var recipientCount: Int?
    public var deviceId: String?
    public var submitValue: Int?
    public var group: String?
    public var document: String?
    /// The session of a login, refresh or logout.
    public var sessionId: UUID?
    /// The area and rule of an area change, transition or rule decision.
    public var area: String?
    public var rule: String?
    /// Whether a rule fired, and why (not).
    public var fired: Bool?
    public var reason: String?
    /// The geotrigger of a geotrigger change or notification.
    public var geotrigger: String?

    /// Creates an entry; the members that depend on `what` are set afterwards.
    public init(_ what: What, position: UInt64, time: String, namespace: String, actor: String, detail: String) {
        self.what = what
        self.position = position
        self.time = time
        self.namespace = namespace
        self.actor = actor
        self.detail = detail
    }

    private enum CodingKeys: String, CodingKey {
        case position, time, namespace, what, detail, user, actor, messageId, title, recipients, recipientCount,
            deviceId, submitValue, group, document, sessionId, area, rule, fired, reason, geotrigger
    }

    /// Writes the entry as the API does: ids in lowercase, members without a value left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position, forKey: .position)
        try c.encode(time, forKey: .time)
        try c.encode(namespace, forKey: .namespace)
        try c.encode(what, forKey: .what)
        try c.encode(detail, forKey: .detail)
        try c.encodeIfPresent(user, forKey: .user)
        try c.encode(actor, forKey: .actor)
        try c.encodeIfPresent(messageId?.uuidString.lowercased(), forKey: .messageId)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(recipients, forKey: .recipients)
        try c.encodeIfPresent(recipientCount, forKey: .recipientCount)
        try c.encodeIfPresent(deviceId, forKey: .deviceId)
        try c.encodeIfPresent(submitValue, forKey: .submitValue)
        try c.encodeIfPresent(group, forKey: .group)
        try c.encodeIfPresent(document, forKey: .document)
        try c.encodeIfPresent(sessionId?.uuidString.lowercased(), forKey: .sessionId)
        try c.encodeIfPresent(area, forKey: .area)
        try c.encodeIfPresent(rule, forKey: .rule)
        try c.encodeIfPresent(fired, forKey: .fired)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(geotrigger, forKey: .geotrigger)
    }
}
