import EventLog
import Foundation

/// The persistent counts rules decide on, as the operator reads them (`muster counters`, `muster quota`).
public struct RuleCounters: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// One rule's event count for one user in one area (or, with `group`, one trigger in one group).
    public struct Counter: Sendable, Hashable, Codable {
        public var user: String
        /// The area, or nil for a group counter.
        public var area: String?
        public var rule: String?
        public var group: String?
        public var trigger: String?
        public var count: Int
    }

    /// Every area counter (optionally of one area) then every group counter, in key order.
    public func counters(area: String? = nil, namespace: String = Names.defaultNamespace) throws -> [Counter] {
        try log.read { reader in
            let state = try reader.projection(RulesProjection.name)
            var result: [Counter] = []
            try state.scan("counters", prefix: DirectoryProjection.key(namespace)) { key, value in
                let parts = Self.parts(key)
                guard parts.count == 4, area == nil || parts[2] == area else { return true }
                var r = ByteReader(value)
                result.append(
                    Counter(user: parts[1], area: parts[2], rule: parts[3], count: Int(try r.readVarint("count"))))
                return true
            }
            guard area == nil else { return result }
            try state.scan("groupCounters", prefix: DirectoryProjection.key(namespace)) { key, value in
                let parts = Self.parts(key)
                guard parts.count == 4 else { return true }
                var r = ByteReader(value)
                result.append(
                    Counter(user: parts[1], group: parts[2], trigger: parts[3], count: Int(try r.readVarint("count"))))
                return true
            }
            return result
        }
    }

    /// Rule notifications the user had on a day of their time zone (`YYYY-MM-DD`).
    public func quota(user: String, day: String, namespace: String = Names.defaultNamespace) throws -> Int {
        try log.read { reader in
            guard
                let bytes = try reader.projection(RulesProjection.name).get(
                    "quota", DirectoryProjection.key(namespace, user, day))
            else { return 0 }
            return try bytes.withUnsafeBytes { buffer in
                var r = ByteReader(buffer)
                return Int(try r.readVarint("count"))
            }
        }
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
