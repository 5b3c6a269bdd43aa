import EventLog
import Foundation

/// The engine decided about one rule for one transition: it fired, or why not, with the counters
/// it set. A rule waiting for its server hook is recorded too (`awaitingServer`), and its answer
/// later in a second record for the same transition.
public struct RuleEvaluated: DomainEvent, Hashable {
    public static let type = "RuleEvaluated"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    public var area: String
    public var rule: String
    public var trigger: String
    /// Log position of the `AreaTransition` decided on.
    public var transition: UInt64
    /// The time the decision was taken for (the transition's time, or its latch's end), µs.
    public var at: Int64
    public var fired: Bool
    /// Why it did not fire, or what firing did.
    public var reason: String
    /// The area's event count for this rule after counting this transition; nil when not counted (superseded).
    public var areaCount: Int?
    /// The group and its event count for this trigger after counting this transition.
    public var group: String?
    public var groupCount: Int?
    /// The user's local day and their rule-notification count on it, when this record counted one.
    public var day: String?
    public var dailyCount: Int?
    /// The inbox message a notification went out as.
    public var messageId: UUID?
    /// The server hook URL, when one was (or is to be) called.
    public var serverURL: String?
    /// The hook's decision (`enable`, `disable`, `notify`) or failure.
    public var decision: String?
    /// True while the server hook has not answered; a later record for the same transition ends it.
    public var awaitingServer: Bool

    public init(
        user: String, deviceId: String, area: String, rule: String, trigger: String, transition: UInt64, at: Int64,
        fired: Bool = false, reason: String = "", areaCount: Int? = nil, group: String? = nil, groupCount: Int? = nil,
        day: String? = nil, dailyCount: Int? = nil, messageId: UUID? = nil, serverURL: String? = nil,
        decision: String? = nil, awaitingServer: Bool = false
    ) {
        self.user = user
        self.deviceId = deviceId
        self.area = area
        self.rule = rule
        self.trigger = trigger
        self.transition = transition
        self.at = at
        self.fired = fired
        self.reason = reason
        self.areaCount = areaCount
        self.group = group
        self.groupCount = groupCount
        self.day = day
        self.dailyCount = dailyCount
        self.messageId = messageId
        self.serverURL = serverURL
        self.decision = decision
        self.awaitingServer = awaitingServer
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
        w.write(area)
        w.write(rule)
        w.write(trigger)
        w.write(varint: transition)
        w.write(signed: at)
        w.write(fired)
        w.write(reason)
        w.write(signed: Int64(areaCount ?? -1))
        w.write(group ?? "")
        w.write(signed: Int64(groupCount ?? -1))
        w.write(day ?? "")
        w.write(signed: Int64(dailyCount ?? -1))
        w.write(messageId)
        w.write(serverURL ?? "")
        w.write(decision ?? "")
        w.write(awaitingServer)
    }

    public init(from r: inout ByteReader) throws {
        func optional(_ value: Int64) -> Int? { value < 0 ? nil : Int(value) }
        func optional(_ text: String) -> String? { text.isEmpty ? nil : text }
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        area = try r.readString("area")
        rule = try r.readString("rule")
        trigger = try r.readString("trigger")
        transition = try r.readVarint("transition")
        at = try r.readSigned("at")
        fired = try r.readBool("fired")
        reason = try r.readString("reason")
        areaCount = optional(try r.readSigned("area count"))
        group = optional(try r.readString("group"))
        groupCount = optional(try r.readSigned("group count"))
        day = optional(try r.readString("day"))
        dailyCount = optional(try r.readSigned("daily count"))
        messageId = try r.readOptionalUUID("message id")
        serverURL = optional(try r.readString("server url"))
        decision = optional(try r.readString("decision"))
        awaitingServer = try r.readBool("awaiting server")
    }
}
