import EventLog
import Foundation

/// The engine decided about one rule for one transition: it fired, or why not, with the counters
/// it set. A rule waiting for its server hook is recorded too (`awaitingServer`), and its answer
/// later in a second record for the same transition.
///
/// Schema 2 adds the area's kind (last); schema 1 (0.1.0) reads with an empty kind, the one area of that id.
public struct RuleEvaluated: DomainEvent, Hashable, Codable {
    public static let type = "RuleEvaluated"
    public static let schemaVersion: UInt16 = 2

    public var user: String
    public var deviceId: String
    public var area: String
    public var rule: String
    public var trigger: String
    /// Log position of the `AreaTransition` decided on.
    public var transition: UInt64
    /// The time the decision was taken for (the transition's time, or its latch's end), µs.
    public var at: Int64
    public var fired = false
    /// Why it did not fire, or what firing did.
    public var reason = ""
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
    public var awaitingServer = false
    /// `geofence` or `beacon`; empty in schema 1.
    public var kind = ""
}
