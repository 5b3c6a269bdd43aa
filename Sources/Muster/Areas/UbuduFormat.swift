import EventLog
import Foundation
import Geo
import MusterWire

/// The Ubudu web-API format of areas (seed 004, `u_geofences.json` / `u_beacons.json`,
/// `api_version` 2), read tolerantly and written canonically.
///
/// Reading accepts what the seed's own examples contain: ids and limits as numbers or numeric
/// strings, `""` and `null` for "empty", `dst` as a string, `specific_days: null`, the weekday
/// `"thi"`, `notify_user` as plain text. Geofence radii are kilometres in this format.
public enum UbuduFormat {
    /// Areas read from a document, and what was accepted but changed.
    public struct Document: Sendable {
        public var areas: [Area]
        /// One line each, naming where (e.g. `u_beacons[0].schedule.week.thi: …`).
        public var warnings: [String]
    }

    /// Reads `{"u_geofences":[…]}`, `{"u_beacons":[…]}` (either or both), a bare array of areas,
    /// or one area object. Throws `.invalidArgument` naming the first bad field.
    public static func read(_ data: Data) throws -> Document {
        let root: Any
        do {
            root = try jsonObject(data)
        } catch {
            throw MusterError(.invalidArgument, "the areas are not valid JSON: \(error)")
        }
        var document = Document(areas: [], warnings: [])
        // Ids are unique within a kind only: a geofence and a beacon region may share one.
        var seen = Set<Area.Identity>()
        func add(_ object: Any, _ path: String, beacon: Bool?) throws {
            guard let fields = object as? [String: Any] else {
                throw MusterError(.invalidArgument, "\(path): expected an area object", field: path)
            }
            var reader = FieldReader(fields: fields, path: path, member: path == "area" ? "" : path + ".")
            let area = try reader.area(beacon: beacon ?? (fields["proximity_uid"] != nil))
            guard seen.insert(area.identity).inserted else {
                throw MusterError(
                    .invalidArgument, "\(path).id: \(area.kind) \(String(reflecting: area.id)) appears twice",
                    field: reader.member + "id")
            }
            document.areas.append(area)
            document.warnings += reader.warnings
        }
        switch root {
        case let list as [Any]:
            for (i, item) in list.enumerated() { try add(item, "[\(i)]", beacon: nil) }
        case let object as [String: Any] where object["u_geofences"] != nil || object["u_beacons"] != nil:
            for (key, beacon) in [("u_geofences", false), ("u_beacons", true)] {
                guard let value = object[key], !(value is NSNull) else { continue }
                guard let list = value as? [Any] else {
                    throw MusterError(.invalidArgument, "\(key): expected a list", field: key)
                }
                for (i, item) in list.enumerated() { try add(item, "\(key)[\(i)]", beacon: beacon) }
            }
        case let object as [String: Any]:
            try add(object, "area", beacon: nil)
        default:
            throw MusterError(
                .invalidArgument, "expected {\"u_geofences\":[…]} or {\"u_beacons\":[…]}, a list of areas or one area")
        }
        return document
    }

    /// Reads one area object of the given kind (the body of `PUT /api/v1/geofences/{id}` or
    /// `…/beacons/{id}`) under the id `id`; errors name the field as `geofence.radius`,
    /// `beacon.proximity_uid`, ….
    public static func readArea(_ object: [String: Any], beacon: Bool, id: String) throws -> (Area, [String]) {
        var fields = object
        fields["id"] = id
        var reader = FieldReader(fields: fields, path: beacon ? "beacon" : "geofence", member: "")
        let area = try reader.area(beacon: beacon)
        return (area, reader.warnings)
    }

    /// The areas' web-API objects as JSON text (sorted keys, slashes unescaped).
    public static func json(_ areas: [Area]) -> Data {
        serialize(areas.map(object))
    }

    /// One area's web-API object as JSON text; with `warnings` (the answer of a put) a `warnings` member lists what was
    /// stored otherwise than given, left out when there is nothing.
    public static func json(_ area: Area, warnings: [String] = []) -> Data {
        var object = object(area)
        if !warnings.isEmpty { object["warnings"] = warnings }
        return serialize(object)
    }

    static func serialize(_ value: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// Reads the fields of one area object, collecting warnings.
    struct FieldReader {
        let fields: [String: Any]
        /// Where the object is, as messages name it: `geofence`, `u_geofences[2]`, `[0].rules_actions[1].rule`.
        let path: String
        /// Where the object is in the request's body, as a refusal's `fields` name its members: empty for the body
        /// itself, else ending in a dot (`u_geofences[2].`).
        let member: String
        var warnings: [String] = []

        /// A reader of an object inside this one: `key` names it in both paths.
        func inner(_ fields: [String: Any], _ key: String) -> FieldReader {
            FieldReader(fields: fields, path: "\(path).\(key)", member: "\(member)\(key).")
        }

        func fail(_ key: String, _ expected: String) -> MusterError {
            let value = fields[key].map { Self.show($0) } ?? "nothing"
            return MusterError(
                .invalidArgument, "\(path).\(key): expected \(expected), not \(value)", field: member + key)
        }

        static func show(_ value: Any) -> String {
            if let text = value as? String { return String(reflecting: text) }
            if value is NSNull { return "null" }
            if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
            return "\(value)"
        }

        /// A number given as a number or numeric string; nil for missing, `null` or `""`.
        func number(_ key: String, _ expected: String = "a number") throws -> Double? {
            switch fields[key] {
            case nil, is NSNull: return nil
            case let text as String:
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { return nil }
                guard let value = Double(trimmed), value.isFinite else { throw fail(key, expected) }
                return value
            case let number as NSNumber where !UbuduFormat.isBoolean(number):
                return number.doubleValue
            default: throw fail(key, expected)
            }
        }

        /// A whole number, or nil when empty.
        func integer(_ key: String) throws -> Int? {
            guard let value = try number(key) else { return nil }
            guard value == value.rounded(), abs(value) < 1e15 else { throw fail(key, "a whole number") }
            return Int(value)
        }

        /// A limit: negative or empty means none.
        func limit(_ key: String) throws -> Int? {
            guard let value = try integer(key), value >= 0 else { return nil }
            return value
        }

        /// Text given as a string or a number; "" when missing or null.
        func text(_ key: String) throws -> String {
            switch fields[key] {
            case nil, is NSNull: return ""
            case let text as String: return text
            case let number as NSNumber: return number.stringValue
            default: throw fail(key, "text")
            }
        }

        func date(_ key: String) throws -> Date? {
            let value = try text(key).trimmingCharacters(in: .whitespaces)
            if value.isEmpty { return nil }
            guard let date = UbuduFormat.parseDate(value) else {
                throw fail(key, "an ISO-8601 date and time like 2013-07-30T00:00:00+02:00")
            }
            // Whole seconds, as the area is written back in its own format (u_geofences.json, exports): a fraction
            // would be lost there, and the area read again would open a moment earlier than the one imported.
            return Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        }

        func object(_ key: String) throws -> [String: Any]? {
            switch fields[key] {
            case nil, is NSNull: return nil
            case let object as [String: Any]: return object
            default: throw fail(key, "an object")
            }
        }

        mutating func area(beacon: Bool) throws -> Area {
            let id = try text("id")
            guard !id.isEmpty else { throw fail("id", "an area id") }
            let region: Area.Region
            if beacon {
                let uuid = try text("proximity_uid").trimmingCharacters(in: .whitespaces)
                guard UUID(uuidString: uuid) != nil else { throw fail("proximity_uid", "a proximity UUID") }
                let major = try integer("major")
                var minor = try integer("minor")
                for (key, value) in [("major", major), ("minor", minor)] {
                    if let value, !(0...65535).contains(value) { throw fail(key, "a number from 0 to 65535, or empty") }
                }
                if major == nil, minor != nil {
                    warnings.append("\(path).minor: ignored because major is empty (empty major ⇒ empty minor)")
                    minor = nil
                }
                region = .beacon(proximityUUID: uuid.uppercased(), major: major, minor: minor)
            } else {
                guard let latitude = try number("lat", "a latitude from -90 to 90"), (-90...90).contains(latitude)
                else {
                    throw fail("lat", "a latitude from -90 to 90")
                }
                guard let longitude = try number("lng", "a longitude from -180 to 180"),
                    (-180...180).contains(longitude)
                else {
                    throw fail("lng", "a longitude from -180 to 180")
                }
                guard let kilometres = try number("radius", "a radius in kilometres from 0 to 40075.017"),
                    (0...40075.017).contains(kilometres)
                else {
                    throw fail("radius", "a radius in kilometres from 0 to 40075.017")
                }
                region = .geofence(latitude: latitude, longitude: longitude, radius: kilometres * 1000)
            }
            var zone = "UTC"
            var zoneTitle = ""
            if let timezone = try object("timezone") {
                let inner = inner(timezone, "timezone")
                zoneTitle = try inner.text("title").trimmingCharacters(in: .whitespaces)
                let given = try inner.text("zone").trimmingCharacters(in: .whitespaces)
                if !given.isEmpty {
                    do { _ = try TimeZone(areaZone: given) } catch {
                        throw MusterError(
                            .invalidArgument, "\(path).timezone.zone: \(error.description)",
                            field: member + "timezone.zone")
                    }
                    zone = given
                } else if let offset = try inner.fixedOffset() {
                    // Only an offset: the area keeps it all year, as the seed's structure gives no rule for summer.
                    zone = offset
                    warnings.append(
                        "\(path).timezone: no zone; its offset \(offset) is used all year (name an IANA zone such as "
                            + "Europe/Paris for summer time)")
                }
            }
            if zone == "UTC", fields["timezone"] == nil || fields["timezone"] is NSNull {
                warnings.append("\(path).timezone: missing; the area's times are taken in UTC")
            }
            var schedule = OpeningHours.alwaysOpen
            if let object = try object("schedule") {
                do {
                    let data = try JSONSerialization.data(withJSONObject: object)
                    schedule = try OpeningHours.parse(data)
                } catch let error as MusterError {
                    throw error
                } catch {
                    throw MusterError(.invalidArgument, "\(path).schedule: \(error)", field: member + "schedule")
                }
                warnings += schedule.warnings.map { "\(path).schedule.\($0)" }
                schedule.warnings = []
            }
            let group = try text("group_id").trimmingCharacters(in: .whitespaces)
            var rules: [AreaRule] = []
            switch fields["rules_actions"] {
            case nil, is NSNull: break
            case let list as [Any]:
                for (i, item) in list.enumerated() {
                    guard let object = item as? [String: Any] else {
                        throw MusterError(
                            .invalidArgument, "\(path).rules_actions[\(i)]: expected a rule object",
                            field: "\(member)rules_actions[\(i)]")
                    }
                    var reader = inner(object, "rules_actions[\(i)]")
                    rules.append(try reader.rule(beacon: beacon))
                    warnings += reader.warnings
                }
            default: throw fail("rules_actions", "a list of rules")
            }
            let duplicates = Dictionary(grouping: rules, by: \.id).filter { $0.value.count > 1 }.keys.sorted()
            if let first = duplicates.first {
                throw MusterError(
                    .invalidArgument, "\(path).rules_actions: rule id \(String(reflecting: first)) appears twice",
                    field: member + "rules_actions")
            }
            let start = try date("start")
            let end = try date("end")
            if let start, let end, end < start { throw fail("end", "a time after start") }
            return Area(
                id: id, region: region, name: try text("name"), address: try text("address"),
                groupId: group.isEmpty ? nil : group, start: start, end: end, timeZone: zone,
                timeZoneTitle: zoneTitle.isEmpty || zoneTitle == zone ? nil : zoneTitle, schedule: schedule,
                updatedAt: try date("updated_at"), rules: rules)
        }

        mutating func rule(beacon: Bool) throws -> AreaRule {
            let id = try text("id")
            guard !id.isEmpty else { throw fail("id", "a rule id") }
            guard let ruleFields = try object("rule") else { throw fail("rule", "an object with the trigger") }
            let rule = inner(ruleFields, "rule")
            let trigger = try rule.text("trigger")
            if FenceTrigger(rawValue: trigger) == nil {
                warnings.append(
                    "\(path).rule.trigger: \(String(reflecting: trigger)) is stored but never fires (the engine processes on_entry and on_exit)"
                )
            }
            var proximity: BeaconProximity?
            for key in ["maximum_proximity", "proximity"] {
                let value = try rule.text(key).trimmingCharacters(in: .whitespaces)
                guard !value.isEmpty else { continue }
                guard let parsed = BeaconProximity(ubudu: value) else {
                    throw rule.fail(key, "immediate, near, far (or 0, 1, 2), or empty")
                }
                proximity = parsed
            }
            if proximity != nil, !beacon {
                warnings.append("\(path).rule.maximum_proximity: ignored for a geofence")
                proximity = nil
            }
            let actionFields = try object("action") ?? [:]
            let action = inner(actionFields, "action")
            let notify: String
            switch actionFields["notify_user"] {
            case let object as [String: Any]:
                notify = String(
                    decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            default: notify = try action.text("notify_user")
            }
            return AreaRule(
                id: id, trigger: trigger, minEvents: try rule.limit("min_events"),
                maxEvents: try rule.limit("max_events"), minGroupEvents: try rule.limit("min_group_events"),
                maxGroupEvents: try rule.limit("max_group_events"), latchTime: try rule.limit("latch_time") ?? 0,
                maximumProximity: proximity,
                action: AreaRule.Action(
                    notifyServer: try action.text("notify_server"), notifyUser: notify,
                    openURL: try action.text("open_url"), openPBK: try action.text("open_pbk")))
        }
    }

    /// `data` as Foundation's JSON objects (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`), its numbers
    /// read exactly: Foundation's own `JSONSerialization` reads some long decimals one step off on Linux
    /// (`2.3268640000000001` → `2.3268639999999996`), so an area's coordinates changed when its JSON was read back.
    public static func jsonObject(_ data: Data) throws -> Any {
        foundation(try JSONValue(json: data))
    }

    private static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .object(let members): members.mapValues(foundation)
        case .array(let elements): elements.map(foundation)
        case .string(let text): text
        // A whole number as an integer, as JSONSerialization gives it: an id of 52 reads as "52", not "52.0".
        case .number(let number):
            if let integer = number.int { NSNumber(value: integer) } else { NSNumber(value: number.double) }
        case .bool(let flag): NSNumber(value: flag)
        case .null: NSNull()
        }
    }

    /// Whether JSON gave `true` or `false` (a boxed boolean), not a number.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// An ISO-8601 date and time with `Z` or an offset (`±HH:MM`, `±HHMM`, `±HH`), with or without
    /// fractional seconds; also a bare `YYYY-MM-DD` (midnight UTC).
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        // ±HH and ±HHMM offsets: normalise to ±HH:MM.
        if let match = text.wholeMatch(of: /(.+T[0-9:.]+)([+-])([0-9]{2}):?([0-9]{2})?/) {
            let normalised = "\(match.1)\(match.2)\(match.3):\(match.4 ?? "00")"
            if normalised != text { return parseDate(normalised) }
        }
        if text.count == 10, let day = LocalDate(text) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
        }
        return nil
    }
}

extension UbuduFormat.FieldReader {
    /// The fixed offset a `timezone` without a `zone` gives, as an ISO-8601 designator (`+02:00`): its `offset` in
    /// seconds, else its `utc_offset` in hours (seed 004); nil when it gives neither.
    func fixedOffset() throws -> String? {
        let seconds: Double
        if let given = try number("offset", "seconds east of UTC, from -64800 to 64800") {
            guard (-64800...64800).contains(given) else {
                throw fail("offset", "seconds east of UTC, from -64800 to 64800")
            }
            seconds = given
        } else if let hours = try number("utc_offset", "hours east of UTC, from -18 to 18") {
            guard (-18...18).contains(hours) else { throw fail("utc_offset", "hours east of UTC, from -18 to 18") }
            seconds = hours * 3600
        } else {
            return nil
        }
        let minutes = Int((abs(seconds) / 60).rounded())
        let sign = seconds < 0 ? "-" : "+"
        return sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
