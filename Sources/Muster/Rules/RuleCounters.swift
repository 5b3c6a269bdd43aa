import EventLog
import Foundation

/// The persistent counts rules decide on, as the operator reads them (`muster counters`, `muster quota`).
public struct RuleCounters: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// One rule's event count for one user in one area (or, with `group`, one trigger in one group).
    public struct Counter: Sendable, Hashable, Codable {
        public var user: String
        /// The area's kind (`geofence` or `beacon`), or nil for a group counter.
        public var kind: String?
        /// The area, or nil for a group counter.
        public var area: String?
        public var rule: String?
        public var group: String?
        public var trigger: String?
        public var count: Int
    }

    /// Every area counter (optionally of one area, of one kind when given) then every group counter, in key
    /// order.
    public func counters(
        area: String? = nil, kind: Area.Kind? = nil, namespace: String = Names.defaultNamespace
    ) throws -> [Counter] {
        try log.read { try $0.rules.counters(area: area, kind: kind, namespace: namespace) }
    }

    /// Rule notifications the user had on a day of their time zone (`YYYY-MM-DD`).
    public func quota(user: String, day: String, namespace: String = Names.defaultNamespace) throws -> Int {
        try log.read { try $0.rules.quota(user: user, day: day, namespace: namespace) }
    }

    /// A user's rule notifications on a day against the namespace's `dailyNotificationLimit`.
    public struct QuotaReport: Sendable, Hashable, Codable {
        public var user: String
        public var date: String
        public var notifications: Int
        /// nil: no limit.
        public var limit: Int?
        public var remaining: Int?
    }

    public func report(user: String, day: String, namespace: String = Names.defaultNamespace) throws -> QuotaReport {
        let used = try quota(user: user, day: day, namespace: namespace)
        let limit = try Settings(log: log).value(.dailyNotificationLimit, namespace: namespace).flatMap(Int.init)
        return QuotaReport(
            user: user, date: day, notifications: used, limit: limit, remaining: limit.map { max($0 - used, 0) })
    }

    /// The user's current local day, for `muster quota` without `--date`.
    public func today(user: String, namespace: String = Names.defaultNamespace, now: Date = Date()) throws -> String {
        let zone = try Directory(log: log).user(user, namespace: namespace)?.timeZone ?? "UTC"
        return RuleRun.day(
            Int64(now.timeIntervalSince1970 * 1_000_000), in: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
        )
    }

    static func parts(_ key: UnsafeRawBufferPointer) -> [String] {
        Array(key).split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
