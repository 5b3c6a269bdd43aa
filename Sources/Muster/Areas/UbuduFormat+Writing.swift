import Foundation
import Geo

extension UbuduFormat {
    /// The web API's answer (`api_version` 2): the areas under `u_geofences` or `u_beacons`, the
    /// end of validity and the query repeated.
    public static func response(
        beacons: Bool, areas: [Area], validUntil: Date, queryParameters: [String: String]
    ) -> Data {
        let root: [String: Any] = [
            beacons ? "u_beacons" : "u_geofences": areas.map(object),
            "api_version": "2",
            "valid_until": text(validUntil),
            "query_params": queryParameters,
        ]
        return serialize(root)
    }

    /// One area in the web-API format (radius in kilometres).
    public static func object(_ area: Area) -> [String: Any] {
        var object: [String: Any] = [
            "id": area.id,
            "group_id": area.groupId ?? "",
            "name": area.name,
            "address": area.address,
            "start": area.start.map(text) ?? "",
            "end": area.end.map(text) ?? "",
            "updated_at": area.updatedAt.map(text) ?? "",
            "timezone": timezone(area.timeZone, title: area.timeZoneTitle),
            "schedule": schedule(area.schedule),
            "rules_actions": area.rules.map { rule(area, $0) },
        ]
        switch area.region {
        case .geofence(let latitude, let longitude, let radius):
            object["lat"] = latitude
            object["lng"] = longitude
            object["radius"] = radius / 1000
        case .beacon(let uuid, let major, let minor):
            object["proximity_uid"] = uuid
            object["major"] = major.map { $0 as Any } ?? ""
            object["minor"] = minor.map { $0 as Any } ?? ""
        }
        return object
    }

    static func rule(_ area: Area, _ rule: AreaRule) -> [String: Any] {
        var conditions: [String: Any] = [
            "trigger": rule.trigger,
            "min_events": rule.minEvents.map { $0 as Any } ?? "",
            "max_events": rule.maxEvents.map { $0 as Any } ?? "",
            "min_group_events": rule.minGroupEvents.map { $0 as Any } ?? "",
            "max_group_events": rule.maxGroupEvents.map { $0 as Any } ?? "",
            "latch_time": rule.latchTime,
        ]
        if case .beacon = area.region { conditions["maximum_proximity"] = rule.maximumProximity?.rawValue ?? "" }
        return [
            "id": rule.id,
            "rule": conditions,
            "action": [
                "notify_server": rule.action.notifyServer, "notify_user": rule.action.notifyUser,
                "open_url": rule.action.openURL, "open_pbk": rule.action.openPBK,
            ],
        ]
    }

    /// The seed's timezone structure: `title` as the area was given it (else the zone); `offset` (seconds) and
    /// `utc_offset` (hours) the zone's offset from UTC at `now`, and `dst` whether that offset includes a summer-time
    /// shift — as the seed defines them ("Europe/Paris has an offset of 3600 outside of DST").
    static func timezone(_ zone: String, title: String?, now: Date = Date()) -> [String: Any] {
        let title = title ?? zone
        guard let timeZone = try? TimeZone(areaZone: zone) else { return ["zone": zone, "title": title] }
        let offset = timeZone.secondsFromGMT(for: now)
        return [
            "zone": zone, "title": title, "offset": offset, "utc_offset": Double(offset) / 3600,
            "dst": timeZone.isDaylightSavingTime(for: now),
        ]
    }

    static func schedule(_ hours: OpeningHours) -> Any {
        guard let data = try? JSONEncoder().encode(hours),
            let object = try? JSONSerialization.jsonObject(with: data)
        else { return [String: Any]() }
        return object
    }

    /// `2013-11-25T13:27:04Z`.
    static func text(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}
