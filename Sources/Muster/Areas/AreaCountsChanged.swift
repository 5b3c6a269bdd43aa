import EventLog
import Foundation

/// A redefinition changed the counts of an area's rule, so its counters start again (seed 004: once the
/// maximum is reached no action is taken again for the area "unless the counts in the geofence rule are
/// changed").
///
/// Recorded with the `AreaDefined` that changed them. The area counters of the rule restart for every user;
/// when the group counts changed too, so do the counters of the area's group for the rule's trigger.
public struct AreaCountsChanged: DomainEvent, Hashable, Codable {
    public static let type = "AreaCountsChanged"
    public static let schemaVersion: UInt16 = 1

    /// `geofence` or `beacon`.
    public var kind: String
    public var area: String
    public var rule: String
    public var trigger: String
    /// The area's group; nil for none.
    public var group: String?
    /// The counts before and after; nil for no limit.
    public var old: Counts
    public var new: Counts

    /// The four counts of a rule, as the seed names them.
    public struct Counts: Sendable, Hashable, Codable, CustomStringConvertible {
        public var minEvents: Int?
        public var maxEvents: Int?
        public var minGroupEvents: Int?
        public var maxGroupEvents: Int?

        public init(_ rule: AreaRule) {
            minEvents = rule.minEvents
            maxEvents = rule.maxEvents
            minGroupEvents = rule.minGroupEvents
            maxGroupEvents = rule.maxGroupEvents
        }

        /// e.g. `min_events 2, max_events 4, min_group_events -, max_group_events 4`.
        public var description: String {
            [
                ("min_events", minEvents), ("max_events", maxEvents), ("min_group_events", minGroupEvents),
                ("max_group_events", maxGroupEvents),
            ]
            .map { "\($0.0) \($0.1.map(String.init) ?? "-")" }.joined(separator: ", ")
        }

        /// Whether the group counts differ from `other`'s.
        func groupCountsDiffer(from other: Counts) -> Bool {
            minGroupEvents != other.minGroupEvents || maxGroupEvents != other.maxGroupEvents
        }
    }

    /// Whether the group counters restart too.
    public var resetsGroup: Bool { group != nil && new.groupCountsDiffer(from: old) }

    /// The changes between a stored area and its new definition: one per rule kept (same id) whose counts
    /// differ. A rule added starts from nothing anyway; one removed no longer counts.
    static func changes(from stored: Area, to area: Area) -> [AreaCountsChanged] {
        area.rules.compactMap { rule in
            guard let before = stored.rules.first(where: { $0.id == rule.id }) else { return nil }
            let old = Counts(before)
            let new = Counts(rule)
            guard old != new else { return nil }
            return AreaCountsChanged(
                kind: area.kind.rawValue, area: area.id, rule: rule.id, trigger: rule.trigger, group: area.groupId,
                old: old, new: new)
        }
    }
}
