import Foundation
import Geo

/// A place rules watch (seed 004, "Areas"): a geofence (a circle on the ground) or an iBeacon
/// region, with its validity, time zone, opening hours and rules.
///
/// Radii are metres here; the Ubudu web API's kilometres are converted at the edge.
public struct Area: Sendable, Hashable, Codable {
    /// What kind of place it is and where.
    public enum Region: Sendable, Hashable, Codable {
        /// A circle: centre in degrees, radius in metres.
        case geofence(latitude: Double, longitude: Double, radius: Double)
        /// Beacons with this proximity UUID and, when given, major and minor.
        case beacon(proximityUUID: String, major: Int?, minor: Int?)
    }

    /// Opaque identifier, unique among the namespace's areas of the same kind (seed 004: a geofence and a
    /// beacon region may share an id and are still two areas).
    public var id: String
    public var region: Region
    public var name: String
    public var address: String
    /// Areas sharing a group id share group counters; nil for none.
    public var groupId: String?
    /// Validity; nil for open-ended.
    public var start: Date?
    public var end: Date?
    /// The area's time zone: an IANA name or an ISO-8601 offset.
    public var timeZone: String
    /// The `title` the area's `timezone` was given (seed 004: a string, such as "Paris, France"); nil when it had
    /// none or it was the zone itself, and the zone is its title.
    public var timeZoneTitle: String?
    public var schedule: OpeningHours
    public var updatedAt: Date?
    public var rules: [AreaRule]

    public init(
        id: String, region: Region, name: String = "", address: String = "", groupId: String? = nil,
        start: Date? = nil, end: Date? = nil, timeZone: String = "UTC", timeZoneTitle: String? = nil,
        schedule: OpeningHours = .alwaysOpen, updatedAt: Date? = nil, rules: [AreaRule] = []
    ) {
        self.id = id
        self.region = region
        self.name = name
        self.address = address
        self.groupId = groupId
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.timeZoneTitle = timeZoneTitle
        self.schedule = schedule
        self.updatedAt = updatedAt
        self.rules = rules
    }

    /// Geofence or beacon region: with the id, what names an area.
    public var kind: Kind {
        if case .geofence = region { return .geofence }
        return .beacon
    }

    /// The kind and id that name this area.
    public var identity: Identity { Identity(kind: kind, id: id) }

    /// The circle of a geofence; nil for a beacon region.
    public var circle: Circle? {
        guard case .geofence(let latitude, let longitude, let radius) = region,
            let centre = try? Coordinate(latitude: latitude, longitude: longitude)
        else { return nil }
        return try? Circle(center: centre, radius: radius)
    }

    /// Whether a beacon with these numbers belongs to this (beacon) region.
    public func matches(proximityUUID: String, major: Int, minor: Int) -> Bool {
        guard case .beacon(let uuid, let wantedMajor, let wantedMinor) = region else { return false }
        return uuid.caseInsensitiveCompare(proximityUUID) == .orderedSame
            && (wantedMajor == nil || wantedMajor == major) && (wantedMinor == nil || wantedMinor == minor)
    }
}
