import EventLog
import Foundation
import Geo

/// What the rules engine remembers between events, per namespace — all of it rebuilt from the log.
///
/// Whatever is kept per device is kept per user's device (`ns 0 user 0 device 0 …`): a device id is
/// only what the reporter says, so another user's report for the same id is another presence and
/// never moves this one (version 3; version 2 keyed it by device alone). An area is its kind and id
/// (`kind 0 area 0`, version 4): a geofence and a beacon region may share an id.
///
/// - `inside`: `ns 0 user 0 device 0 kind 0 area 0` → time of entry or last beacon sighting (µs, 8 bytes),
///   then, for beacon regions, the user
/// - `fixes`: `ns 0 user 0 device 0` → the device's last latitude and longitude (2 × 8 bytes)
/// - `latches`: `ns 0 user 0 device 0 kind 0 area 0 rule 0` → the waiting transition's position and due time
/// - `due`: due time (8 bytes, big-endian) + the latch key → the transition's position
/// - `counters`: `ns 0 user 0 kind 0 area 0 rule 0` → event count (0 again after `AreaCountsChanged`)
/// - `groupCounters`: `ns 0 user 0 group 0 trigger 0` → event count + position of the last transition counted
/// - `quota`: `ns 0 user 0 YYYY-MM-DD 0` → rule notifications that day
/// - `hooks`: `ns 0 user 0 device 0 kind 0 area 0 rule 0 transition 0` → position of the record awaiting the
///   server
/// - `beaconReadings`: `ns 0 user 0 device 0` → the device's recent readings of region beacons, for the
///   hand-over
/// - `areaKinds`: `ns 0 id 0` → the kind of the area last defined with that id, which names the area of a
///   schema-1 record (kind empty: 0.1.0 allowed one area per id)
public struct RulesProjection: Projection {
    public static let name = "rules"
    public var name: String { Self.name }
    public var version: UInt32 { 4 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] {
        [
            "inside", "fixes", "latches", "due", "counters", "groupCounters", "quota", "hooks", "beaconReadings",
            "areaKinds",
        ]
    }

    public var eventTypes: Set<String>? {
        [
            LocationReported.type, BeaconSighted.type, AreaTransition.type, RuleEvaluated.type, AreaDefined.type,
            AreaCountsChanged.type,
        ]
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        switch event.type {
        case LocationReported.type:
            let fix = try LocationReported.decode(event)!
            var w = ByteWriter(capacity: 16)
            w.write(fixed: fix.latitude.bitPattern)
            w.write(fixed: fix.longitude.bitPattern)
            try state.put("fixes", Key.joined(ns, fix.user, fix.deviceId), w.bytes)
        case BeaconSighted.type:
            let sighting = try BeaconSighted.decode(event)!
            let device = Key.joined(ns, sighting.user, sighting.deviceId)
            for region in sighting.regions {
                let inside = device + Area.Identity(kind: .beacon, id: region).key
                guard try state.get("inside", inside) != nil else { continue }
                try state.put("inside", inside, Self.time(sighting.at) + Array(sighting.user.utf8))
            }
            guard !sighting.regions.isEmpty else { break }
            let readingsKey = device
            var readings = try state.get("beaconReadings", readingsKey).map(BeaconReading.decode) ?? []
            readings.append(BeaconReading(beacon: sighting.beacon, rssi: sighting.rssi, at: sighting.at))
            try state.put(
                "beaconReadings", readingsKey, BeaconReading.encode(BeaconReading.recent(readings, at: sighting.at)))
        case AreaTransition.type:
            let transition = try AreaTransition.decode(event)!
            let area = try Self.areaKey(transition.kind, transition.area, namespace: ns, state)
            let inside = Key.joined(ns, transition.user, transition.deviceId) + area
            if transition.trigger == "on_entry" {
                // Beacon regions also keep the user, so the timer can take a silent device out.
                let user = transition.source == .beacon ? Array(transition.user.utf8) : []
                try state.put("inside", inside, Self.time(transition.at) + user)
            } else {
                try state.delete("inside", inside)
            }
            // A newer event for the area supersedes whatever still waited for its latch time.
            var superseded: [([UInt8], [UInt8])] = []
            try state.scan("latches", prefix: inside) { key, value in
                superseded.append((Array(key), Array(value)))
                return true
            }
            for (latchKey, value) in superseded {
                try state.delete("latches", latchKey)
                try state.delete("due", Self.dueKey(Self.pending(value).dueAt, latchKey))
            }
            for latch in transition.latches {
                let latchKey = inside + Key.joined(latch.rule)
                var w = ByteWriter(capacity: 16)
                w.write(varint: event.position)
                w.write(signed: latch.dueAt)
                try state.put("latches", latchKey, w.bytes)
                var p = ByteWriter(capacity: 10)
                p.write(varint: event.position)
                try state.put("due", Self.dueKey(latch.dueAt, latchKey), p.bytes)
            }
        case RuleEvaluated.type:
            let record = try RuleEvaluated.decode(event)!
            let area = try Self.areaKey(record.kind, record.area, namespace: ns, state)
            let latchKey = Key.joined(ns, record.user, record.deviceId) + area + Key.joined(record.rule)
            if let value = try state.get("latches", latchKey) {
                let pending = try Self.pending(value)
                if pending.transition == record.transition {
                    try state.delete("latches", latchKey)
                    try state.delete("due", Self.dueKey(pending.dueAt, latchKey))
                }
            }
            if let count = record.areaCount {
                try state.put(
                    "counters", Key.joined(ns, record.user) + area + Key.joined(record.rule), Self.count(count))
            }
            if let group = record.group, let count = record.groupCount {
                var w = ByteWriter(capacity: 12)
                w.write(varint: UInt64(count))
                w.write(varint: record.transition)
                try state.put("groupCounters", Key.joined(ns, record.user, group, record.trigger), w.bytes)
            }
            if let day = record.day, let count = record.dailyCount {
                try state.put("quota", Key.joined(ns, record.user, day), Self.count(count))
            }
            let hook =
                Key.joined(ns, record.user, record.deviceId) + area
                + Key.joined(record.rule, String(record.transition))
            if record.awaitingServer {
                var w = ByteWriter(capacity: 10)
                w.write(varint: event.position)
                try state.put("hooks", hook, w.bytes)
            } else {
                try state.delete("hooks", hook)
            }
        case AreaDefined.type:
            let area = try AreaDefined.decode(event)!.area
            try state.put("areaKinds", Key.joined(ns, area.id), Array(area.kind.rawValue.utf8))
        case AreaCountsChanged.type:
            try Self.restartCounters(try AreaCountsChanged.decode(event)!, namespace: ns, state)
        default: break
        }
    }

    /// The `kind 0 area 0` components of a recorded area; an empty kind (schema 1) is the kind of the area
    /// last defined with that id.
    static func areaKey(_ kind: String, _ id: String, namespace: String, _ state: ProjectionState) throws -> [UInt8] {
        if !kind.isEmpty { return Key.joined(kind, id) }
        let defined = try state.get("areaKinds", Key.joined(namespace, id)).map { String(decoding: $0, as: UTF8.self) }
        return Key.joined(defined ?? Area.Kind.geofence.rawValue, id)
    }

    /// Sets to 0 every user's counter of the changed rule and, when its group counts changed, of its group and
    /// trigger.
    static func restartCounters(_ change: AreaCountsChanged, namespace: String, _ state: ProjectionState) throws {
        var restarted: [[UInt8]] = []
        try state.scan("counters", prefix: Key.joined(namespace)) { key, _ in
            let parts = RuleCounters.parts(key)
            if parts.count == 5, parts[2] == change.kind, parts[3] == change.area, parts[4] == change.rule {
                restarted.append(Array(key))
            }
            return true
        }
        for key in restarted { try state.put("counters", key, count(0)) }
        guard change.resetsGroup, let group = change.group else { return }
        var groups: [[UInt8]] = []
        try state.scan("groupCounters", prefix: Key.joined(namespace)) { key, _ in
            let parts = RuleCounters.parts(key)
            if parts.count == 4, parts[2] == group, parts[3] == change.trigger { groups.append(Array(key)) }
            return true
        }
        for key in groups {
            var w = ByteWriter(capacity: 2)
            w.write(varint: 0)
            w.write(varint: 0)
            try state.put("groupCounters", key, w.bytes)
        }
    }

    static func time(_ at: Int64) -> [UInt8] {
        var w = ByteWriter(capacity: 8)
        w.write(fixed: at)
        return w.bytes
    }

    static func count(_ value: Int) -> [UInt8] {
        var w = ByteWriter(capacity: 5)
        w.write(varint: UInt64(value))
        return w.bytes
    }

    /// The due time big-endian first, so a scan visits latches in the order they end.
    static func dueKey(_ dueAt: Int64, _ latchKey: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt64(bitPattern: max(dueAt, 0)).bigEndian, Array.init) + latchKey
    }

    /// A `latches` value: the transition and when its latch ends.
    static func pending(_ value: [UInt8]) throws -> (transition: UInt64, dueAt: Int64) {
        try value.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return (try r.readVarint("transition"), try r.readSigned("due at"))
        }
    }
}

extension LogSnapshot {
    /// What the rules engine remembers, in this snapshot.
    var rules: ProjectionView<RulesProjection> { get throws { try view(RulesProjection()) } }
}

extension ProjectionView<RulesProjection> {
    /// Presences in beacon regions last seen before `cutoff` (µs), as (namespace, user, device, region id).
    func beaconPresences(seenBefore cutoff: Int64) throws -> [(String, String, String, String)] {
        var found: [(String, String, String, String)] = []
        try state.scan("inside") { key, value in
            // Only beacon regions keep the user after the time.
            guard value.count > 8, value.loadUnaligned(as: Int64.self) < cutoff else { return true }
            let parts = RuleCounters.parts(key)
            if parts.count == 5, parts[3] == Area.Kind.beacon.rawValue {
                found.append((parts[0], parts[1], parts[2], parts[4]))
            }
            return true
        }
        return found
    }

    /// When the next latch ends, µs since 1970; nil when none waits.
    func nextLatchEnd() throws -> Int64? {
        var first: Int64?
        try state.scan("due") { key, _ in
            first = Int64(bitPattern: key.loadUnaligned(as: UInt64.self).bigEndian)
            return false
        }
        return first
    }

    /// Positions of the rule records waiting for their server hook.
    func awaitingServer() throws -> [UInt64] {
        var positions: [UInt64] = []
        try state.scan("hooks") { _, value in
            var reader = ByteReader(value)
            positions.append(try reader.readVarint("position"))
            return true
        }
        return positions
    }

    /// Every area counter (optionally of one area: an id, and a kind when given) then every group counter, in
    /// key order.
    func counters(area: String?, kind: Area.Kind?, namespace: String) throws -> [RuleCounters.Counter] {
        var result: [RuleCounters.Counter] = []
        try state.scan("counters", prefix: Key.joined(namespace)) { key, value in
            let parts = RuleCounters.parts(key)
            guard parts.count == 5, area == nil || parts[3] == area, kind == nil || parts[2] == kind?.rawValue else {
                return true
            }
            var r = ByteReader(value)
            result.append(
                RuleCounters.Counter(
                    user: parts[1], kind: parts[2], area: parts[3], rule: parts[4],
                    count: Int(try r.readVarint("count"))))
            return true
        }
        guard area == nil else { return result }
        try state.scan("groupCounters", prefix: Key.joined(namespace)) { key, value in
            let parts = RuleCounters.parts(key)
            guard parts.count == 4 else { return true }
            var r = ByteReader(value)
            result.append(
                RuleCounters.Counter(
                    user: parts[1], group: parts[2], trigger: parts[3], count: Int(try r.readVarint("count"))))
            return true
        }
        return result
    }

    /// Rule notifications the user had on a day of their time zone (`YYYY-MM-DD`).
    func quota(user: String, day: String, namespace: String) throws -> Int {
        guard let bytes = try state.get("quota", Key.joined(namespace, user, day)) else { return 0 }
        return try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return Int(try r.readVarint("count"))
        }
    }
}

extension ProjectionView<RulesProjection> {
    /// The device's last fix, or nil.
    func fix(user: String, deviceId: String, namespace: String) throws -> Coordinate? {
        guard let bytes = try state.get("fixes", Key.joined(namespace, user, deviceId)), bytes.count == 16 else {
            return nil
        }
        return bytes.withUnsafeBytes { buffer in
            try? Coordinate(
                latitude: Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(as: UInt64.self))),
                longitude: Double(
                    bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))))
        }
    }

    /// The ids of the geofences the device is inside.
    func geofencesInside(user: String, deviceId: String, namespace: String) throws -> Set<String> {
        var inside = Set<String>()
        try state.scan("inside", prefix: Key.joined(namespace, user, deviceId, Area.Kind.geofence.rawValue)) { key, _ in
            inside.insert(RuleRun.lastComponent(key))
            return true
        }
        return inside
    }

    /// The areas the device is inside.
    func inside(user: String, deviceId: String, namespace: String) throws -> Set<Area.Identity> {
        var found = Set<Area.Identity>()
        try state.scan("inside", prefix: Key.joined(namespace, user, deviceId)) { key, _ in
            let parts = RuleCounters.parts(key)
            if parts.count == 5, let kind = Area.Kind(rawValue: parts[3]) {
                found.insert(Area.Identity(kind: kind, id: parts[4]))
            }
            return true
        }
        return found
    }
}
