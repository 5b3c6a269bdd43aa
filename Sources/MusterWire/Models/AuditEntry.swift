import Foundation

/// One thing the log says happened to (or was done by) a person: what was sent, answered, changed.
public struct AuditEntry: Sendable, Hashable, Codable {
    /// What happened.
    public enum What: String, Sendable, Hashable, Codable {
        case userCreated, groupJoined, groupLeft, deviceRegistered, deviceUnregistered, payloadSent, responseReceived,
            documentUploaded, loggedIn, sessionRefreshed, loggedOut, loginFailed, areaDefined, areaRemoved,
            areaTransition, ruleEvaluated, geotriggerDefined, geotriggerRemoved, geotriggerNotified, pushDelivered,
            pushFailed, pushExpired, locationRequested, deviceDataReported,
            areaCountsChanged, areaNotificationHanded, areaNotificationPerformed, areaNotificationDismissed
        case geotriggerMonitorStarted, geotriggerMonitorStopped
        case deviceTraceLoggingSet
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
