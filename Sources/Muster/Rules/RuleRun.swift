import EventLog
import Foundation
import Geo
import MusterWire
import Synchronization

/// One writer transaction of the rules engine: reads the rules state, appends transitions and
/// decisions, collects the outcomes and the server hooks to call after the commit.
final class RuleRun {
    let scope: WriteScope
    let namespace: String
    let areas: AreaCache.Compiled
    let state: ProjectionState
    let directory: ProjectionView<DirectoryProjection>
    var evaluation = LocationAnswer()
    private(set) var hooks: [PendingHook] = []
    /// The user reporting, when the run is for one report.
    let reporter: UserCreated?
    let cache: AreaCache

    init(scope: WriteScope, namespace: String = Names.defaultNamespace, user: String? = nil, cache: AreaCache) throws {
        self.scope = scope
        self.cache = cache
        self.namespace = namespace
        areas = try cache.compiled(namespace, scope)
        state = try scope.projection(RulesProjection.name)
        directory = try scope.directory
        if let user {
            guard let found = try directory.user(user, namespace: namespace) else {
                throw MusterError(
                    .invalidArgument, "user: no user named \(String(reflecting: user)) in namespace \(namespace)")
            }
            reporter = found
        } else {
            reporter = nil
        }
    }

    // MARK: Reports

    /// `prepared`: the crossings worked out before, when `PreparedFix.isCurrent` said they still hold.
    func locate(deviceId: String, fix: Fix, at: Int64, prepared: PreparedFix? = nil) throws {
        let user = reporter!.name
        let previous: Coordinate?
        if let prepared {
            previous = prepared.previous
        } else {
            previous = try lastFix(user, deviceId)
        }
        try append(
            stream: deviceId,
            LocationReported(
                user: user, deviceId: deviceId, latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                accuracy: fix.accuracy, at: at))
        try leaveUnseenBeaconRegions(deviceId: deviceId, at: at, location: fix.coordinate)
        guard areas.detector.isUsable(fix) else {
            evaluation.ignored =
                "accuracy \(fix.accuracy!) m is above \(areas.detector.maximumAccuracy) m: the fix decides no transition"
            return
        }
        let crossings =
            try prepared?.crossings
            ?? areas.detector.crossings(
                inside: ProjectionView<RulesProjection>(state: state).geofencesInside(
                    user: user, deviceId: deviceId, namespace: namespace),
                previous: previous, fix: fix)
        for crossing in crossings {
            try transition(
                deviceId: deviceId, user: user, area: Area.Identity(kind: .geofence, id: crossing.id),
                trigger: crossing.trigger.rawValue,
                source: .location, at: at, location: fix.coordinate, proximity: nil)
        }
        try runGeotriggers(deviceId: deviceId, user: user, fix: fix, previous: previous, at: at)
    }

    func sight(_ sighting: RuleEngine.BeaconReport, at: Int64) throws {
        let user = reporter!.name
        let proximity =
            sighting.proximity ?? BeaconProximity(rssi: sighting.rssi, measuredPower: sighting.measuredPower)
        let regions = areas.beaconRegions.filter {
            $0.matches(proximityUUID: sighting.proximityUUID, major: sighting.major, minor: sighting.minor)
        }
        let location = try lastFix(user, sighting.deviceId)
        try leaveUnseenBeaconRegions(
            deviceId: sighting.deviceId, except: Set(regions.map(\.id)), at: at, location: location)
        let sighted = BeaconSighted(
            user: user, deviceId: sighting.deviceId, proximityUUID: sighting.proximityUUID, major: sighting.major,
            minor: sighting.minor, rssi: sighting.rssi, measuredPower: sighting.measuredPower,
            proximity: proximity.rawValue, at: at, regions: regions.map(\.id))
        // Several region beacons heard: only the clearly nearest one triggers (seed 004's hand-over).
        var readings =
            try state.get("beaconReadings", Key.joined(namespace, user, sighting.deviceId)).map(BeaconReading.decode)
            ?? []
        readings = BeaconReading.recent(readings, at: at)
        try append(stream: sighting.deviceId, sighted)
        guard !regions.isEmpty else { return }
        var handOver = BeaconReading.handOver(readings)
        handOver.record(sighted.beacon, rssi: sighting.rssi, at: Double(at) / 1_000_000)
        switch handOver.nearest {
        case .beacon(let nearest) where nearest == sighted.beacon: break
        case .beacon(let nearest):
            evaluation.ignored =
                "the nearest beacon is still \(nearest) (another must be \(Int(handOver.margin)) dB stronger to take over): this sighting triggers nothing"
            return
        case .undetermined, .noneInRange:
            let heard = handOver.inRange.map(\.id).joined(separator: ", ")
            evaluation.ignored = "no beacon is clearly nearest (\(heard)): nothing triggered"
            return
        }
        for region in regions
        where try state.get("inside", Key.joined(namespace, user, sighting.deviceId) + region.identity.key) == nil {
            try transition(
                deviceId: sighting.deviceId, user: user, area: region.identity, trigger: "on_entry", source: .beacon,
                at: at, location: location, proximity: proximity.rawValue)
        }
    }

    /// Takes the reporter's device out of the beacon regions it is in but has not seen for `beaconExitAfter` seconds
    /// by `at` — at any report of the device, a GPS fix as well as a sighting — except those it sees now.
    func leaveUnseenBeaconRegions(deviceId: String, except seen: Set<String> = [], at: Int64, location: Coordinate?)
        throws
    {
        let user = reporter!.name
        var stale: [Area.Identity] = []
        try state.scan("inside", prefix: Key.joined(namespace, user, deviceId, Area.Kind.beacon.rawValue)) {
            key, value in
            let area = Area.Identity(kind: .beacon, id: Self.lastComponent(key))
            guard areas.areas[area] != nil, !seen.contains(area.id) else { return true }
            if value.loadUnaligned(as: Int64.self) < at - RuleEngine.beaconExitAfter * 1_000_000 { stale.append(area) }
            return true
        }
        for area in stale {
            try transition(
                deviceId: deviceId, user: user, area: area, trigger: "on_exit", source: .beacon, at: at,
                location: location, proximity: nil)
        }
    }

    /// Takes the user's device out of a beacon region not seen for `beaconExitAfter` seconds, if that is still so.
    func expireBeaconRegion(user: String, deviceId: String, area id: String, at: Int64) throws {
        let area = Area.Identity(kind: .beacon, id: id)
        guard let value = try state.get("inside", Key.joined(namespace, user, deviceId) + area.key), value.count > 8
        else {
            return
        }
        let lastSeen = value.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }
        guard lastSeen < at - RuleEngine.beaconExitAfter * 1_000_000 else { return }
        try transition(
            deviceId: deviceId, user: user, area: area, trigger: "on_exit", source: .beacon, at: at,
            location: try lastFix(user, deviceId), proximity: nil)
    }

    /// An entry or exit the device reported: recorded when it changes where the device is.
    func reported(_ report: RuleEngine.TransitionReport, at: Int64, location: Coordinate?) throws {
        let named = Area.Kind.allCases.filter { report.kind == nil || report.kind == $0 }.compactMap {
            areas.areas[Area.Identity(kind: $0, id: report.area)]
        }
        guard let area = named.first else {
            throw MusterError(
                .invalidArgument,
                "area: no \(report.kind?.description ?? "area") \(String(reflecting: report.area)) in namespace \(namespace)"
            )
        }
        guard named.count == 1 else {
            throw MusterError(
                .invalidArgument,
                "area: \(String(reflecting: report.area)) names both a geofence and a beacon region; give kind (geofence or beacon)"
            )
        }
        let isInside =
            try state.get("inside", Key.joined(namespace, reporter!.name, report.deviceId) + area.identity.key) != nil
        if isInside == (report.trigger == "on_entry") {
            evaluation.ignored =
                "device \(report.deviceId) is already \(isInside ? "inside" : "outside") area \(report.area): nothing changed"
            return
        }
        try transition(
            deviceId: report.deviceId, user: reporter!.name, area: area.identity, trigger: report.trigger,
            source: .device, at: at, location: location, proximity: nil)
    }

    // MARK: Transitions and latches

    func transition(
        deviceId: String, user: String, area identity: Area.Identity, trigger: String, source: AreaTransition.Source,
        at: Int64, location: Coordinate?, proximity: String?
    ) throws {
        let id = identity.id
        let kind = identity.kind.rawValue
        evaluation.transitions.append(LocationAnswer.Transition(area: id, trigger: trigger))
        // Rules still waiting for their latch time: this newer event supersedes them.
        var waiting: [(rule: String, transition: UInt64)] = []
        try state.scan("latches", prefix: Key.joined(namespace, user, deviceId) + identity.key) { key, value in
            let pending = try RulesProjection.pending(Array(value))
            waiting.append((Self.lastComponent(key), pending.transition))
            return true
        }
        for (rule, position) in waiting {
            guard let event = try scope.event(at: position), let earlier = try AreaTransition.decode(event) else {
                continue
            }
            let reason =
                "superseded: another event for the area (\(trigger) at \(Timestamp.iso8601(microseconds: at))) came within the latch time"
            try record(
                RuleEvaluated(
                    user: earlier.user, deviceId: deviceId, area: id, rule: rule, trigger: earlier.trigger,
                    transition: position, at: at, reason: reason, kind: kind))
        }
        let area = areas.areas[identity]
        let rules = (area?.rules ?? []).filter { $0.trigger == trigger }
        let latches = rules.filter { $0.latchTime > 0 }.map {
            AreaTransition.Latch(rule: $0.id, dueAt: at + Int64($0.latchTime) * 1_000_000)
        }
        let event = AreaTransition(
            user: user, deviceId: deviceId, area: id, trigger: trigger, source: source, at: at,
            latitude: location?.latitude, longitude: location?.longitude, proximity: proximity, latches: latches,
            kind: kind)
        let position = try append(stream: deviceId, event)
        guard let area else { return }
        for rule in rules {
            if rule.latchTime > 0 {
                let due = at + Int64(rule.latchTime) * 1_000_000
                evaluation.outcomes.append(
                    LocationAnswer.Outcome(
                        rule: rule.id, area: id, fired: false,
                        reason:
                            "waiting for the latch time (\(rule.latchTime) s, until \(Timestamp.iso8601(microseconds: due)))"
                    ))
            } else {
                try evaluate(area, rule, event, transition: position, at: at)
            }
        }
    }

    /// Evaluates the latched rules (of one user's device, or all) whose time has come by `upTo`.
    func fireDueLatches(user: String?, deviceId: String?, upTo: Int64, limit: Int = .max) throws {
        let device = user.flatMap { user in deviceId.map { Key.joined(namespace, user, $0) } }
        var due: [(key: [UInt8], transition: UInt64, dueAt: Int64)] = []
        try state.scan("due") { key, value in
            let dueAt = Int64(bitPattern: key.loadUnaligned(as: UInt64.self).bigEndian)
            guard dueAt <= upTo, due.count < limit else { return false }
            let latchKey = Array(key.dropFirst(8))
            var r = ByteReader(value)
            let transition = try r.readVarint("transition")
            if let device {
                guard latchKey.starts(with: device) else { return true }
            }
            due.append((latchKey, transition, dueAt))
            return true
        }
        for item in due {
            guard let event = try scope.event(at: item.transition), let transition = try AreaTransition.decode(event)
            else {
                continue
            }
            let rule = Self.lastComponent(item.key)
            let run =
                event.namespace == namespace
                ? self : try RuleRun(scope: scope, namespace: event.namespace, cache: cache)
            try run.fireLatch(transition, position: item.transition, rule: rule, at: item.dueAt)
            if run !== self {
                evaluation = evaluation.merging(run.evaluation)
                hooks += run.hooks
            }
        }
    }

    /// Evaluates a rule whose latch time ended, unless its user, area or rule went meanwhile: then it only records
    /// why nothing was done.
    private func fireLatch(_ transition: AreaTransition, position: UInt64, rule id: String, at: Int64) throws {
        let area = areas.area(kind: transition.kind, id: transition.area)
        let rule = area?.rules.first(where: { $0.id == id })
        let gone =
            try directory.user(transition.user, namespace: namespace) == nil
            ? "the user was removed before the latch time ended"
            : rule == nil ? "the area or rule was removed before its latch time ended" : nil
        guard let area, let rule, gone == nil else {
            try record(
                RuleEvaluated(
                    user: transition.user, deviceId: transition.deviceId, area: transition.area, rule: id,
                    trigger: transition.trigger, transition: position, at: at, reason: gone ?? "", kind: transition.kind
                ))
            return
        }
        try evaluate(area, rule, transition, transition: position, at: at)
    }

    // MARK: Evaluation

    /// Counts the event, checks every condition of the IF list, then acts.
    func evaluate(_ area: Area, _ rule: AreaRule, _ event: AreaTransition, transition: UInt64, at: Int64) throws {
        let user = event.user
        var decision = RuleEvaluated(
            user: user, deviceId: event.deviceId, area: area.id, rule: rule.id, trigger: event.trigger,
            transition: transition, at: at, kind: area.kind.rawValue)
        decision.areaCount =
            try count("counters", Key.joined(namespace, user) + area.identity.key + Key.joined(rule.id)) + 1
        if let group = area.groupId {
            decision.group = group
            decision.groupCount = try groupCount(
                user: user, group: group, trigger: event.trigger, transition: transition)
        }
        let timeZone = try userTimeZone(user)
        let day = Self.day(at, in: timeZone)
        let limit = try dailyLimit()
        let conditions = RuleConditions(
            area: area, rule: rule, at: at, areaCount: decision.areaCount!, groupCount: decision.groupCount,
            notificationsToday: try count("quota", Key.joined(namespace, user, day)), dailyLimit: limit, day: day,
            proximity: event.proximity.flatMap(BeaconProximity.init(rawValue:)))
        if let reason = conditions.firstUnmet() {
            decision.reason = reason
            try record(decision)
            return
        }
        let values = URLTemplate.Values(
            area: area.id, latitude: event.latitude, longitude: event.longitude, deviceId: event.deviceId,
            namespace: namespace)
        if !rule.action.notifyServer.isEmpty {
            let url = URLTemplate.expand(rule.action.notifyServer, values)
            guard try setting(.automaticServerNotifications) else {
                try handServerNotification(decision, url: url)
                return
            }
            decision.serverURL = url
            decision.awaitingServer = true
            decision.reason = "waiting for the server hook \(url)"
            let position = try record(decision)
            hooks.append(PendingHook(record: decision, namespace: namespace, url: url, position: position))
            return
        }
        try notify(
            decision, area: area, notice: rule.action.notification, openURL: rule.action.openURL,
            openPBK: rule.action.openPBK, values: values, timeZone: timeZone)
    }

    /// Ends a rule that waited for its server hook with the hook's answer.
    func complete(_ pending: PendingHook, answer: ServerHook.Answer) throws {
        // Already answered (another instance, or a resumed hook): nothing to do.
        let waiting = pending.record
        let hookKey =
            Key.joined(namespace, waiting.user, waiting.deviceId)
            + (try RulesProjection.areaKey(waiting.kind, waiting.area, namespace: namespace, state))
            + Key.joined(waiting.rule, String(waiting.transition))
        guard try state.get("hooks", hookKey) != nil else { return }
        var decision = pending.record
        decision.awaitingServer = false
        decision.areaCount = nil
        decision.groupCount = nil
        decision.group = nil
        switch answer {
        case .failure(let why):
            decision.decision = "failed"
            decision.reason = "aborted: \(why)"
            try record(decision)
        case .decision(let answer):
            decision.decision = answer.kind.rawValue
            guard answer.kind != .disable else {
                decision.reason = "the server hook decided disable"
                try record(decision)
                return
            }
            guard let area = areas.area(kind: decision.kind, id: decision.area),
                let rule = area.rules.first(where: { $0.id == decision.rule })
            else {
                decision.reason = "the area or rule was removed while the server hook answered"
                try record(decision)
                return
            }
            guard try directory.user(decision.user, namespace: namespace) != nil else {
                decision.reason = "the user was removed while the server hook answered"
                try record(decision)
                return
            }
            let event = (try? scope.event(at: decision.transition)).flatMap { try? AreaTransition.decode($0) }
            let values = URLTemplate.Values(
                area: area.id, latitude: event?.latitude, longitude: event?.longitude, deviceId: decision.deviceId,
                namespace: namespace)
            let timeZone = try userTimeZone(decision.user)
            if answer.kind == .notify {
                try notify(
                    decision, area: area, notice: answer.notice, openURL: answer.openURL, openPBK: answer.openPBK,
                    values: values, timeZone: timeZone)
            } else {
                try notify(
                    decision, area: area, notice: rule.action.notification, openURL: rule.action.openURL,
                    openPBK: rule.action.openPBK, values: values, timeZone: timeZone)
            }
        }
    }

    /// The notify_user step: count the notification for the day, then deliver it (or hand it to
    /// the application).
    private func notify(
        _ decision: RuleEvaluated, area: Area, notice: UserNotice?, openURL: String, openPBK: String,
        values: URLTemplate.Values, timeZone: TimeZone
    ) throws {
        var decision = decision
        decision.fired = true
        guard let notice else {
            decision.reason = "fired; no notify_user text, so nothing to deliver"
            try record(decision)
            return
        }
        let day = Self.day(decision.at, in: timeZone)
        let count = try count("quota", Key.joined(namespace, decision.user, day)) + 1
        decision.day = day
        decision.dailyCount = count
        if let limit = try dailyLimit(), count > limit {
            decision.fired = false
            decision.reason =
                "daily notification limit reached: this would be notification \(count) of \(limit) for \(decision.user) on \(day)"
            try record(decision)
            return
        }
        let link: RuleNotice.Link? =
            !openURL.isEmpty
            ? .web(URLTemplate.expand(openURL, values))
            : !openPBK.isEmpty ? .wallet(URLTemplate.expand(openPBK, values)) : nil
        let message = RuleNotice(area: area, rule: decision.rule, trigger: decision.trigger, notice: notice, link: link)
        guard try setting(.automaticUserNotifications) else {
            try handUserNotification(decision, message)
            return
        }
        decision.messageId = try Self.send(
            title: message.title, body: notice.alertBody, payload: message.payload(),
            responseTopic: message.responseTopic, to: decision.user, namespace: namespace, scope)
        decision.reason = "notified \(decision.user): \(String(reflecting: notice.alertBody))"
        try record(decision)
    }

    // MARK: State

    @discardableResult
    func record(_ decision: RuleEvaluated) throws -> UInt64 {
        let position = try append(stream: decision.deviceId, decision)
        if let i = evaluation.outcomes.lastIndex(where: {
            $0.rule == decision.rule && $0.area == decision.area && $0.reason.hasPrefix("waiting for the latch time")
        }) {
            evaluation.outcomes.remove(at: i)
        }
        evaluation.outcomes.append(
            LocationAnswer.Outcome(
                rule: decision.rule, area: decision.area, fired: decision.fired, reason: decision.reason,
                messageId: decision.messageId?.uuidString.lowercased()))
        return position
    }

    @discardableResult
    func append(stream deviceId: String, _ event: some DomainEvent) throws -> UInt64 {
        try scope.append(
            AppendRequest(
                namespace: namespace, stream: Streams.device(deviceId), events: [event.newEvent(actor: "rules")]))
        return scope.head
    }

    private func count(_ table: String, _ key: [UInt8]) throws -> Int {
        guard let bytes = try state.get(table, key) else { return 0 }
        return try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            return Int(try r.readVarint("count"))
        }
    }

    /// The group count after this transition: counted once per transition, however many rules share it.
    private func groupCount(user: String, group: String, trigger: String, transition: UInt64) throws -> Int {
        guard let bytes = try state.get("groupCounters", Key.joined(namespace, user, group, trigger)) else { return 1 }
        return try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            let count = Int(try r.readVarint("count"))
            return try r.readVarint("last transition") == transition ? count : count + 1
        }
    }

    private func lastFix(_ user: String, _ deviceId: String) throws -> Coordinate? {
        try ProjectionView<RulesProjection>(state: state).fix(user: user, deviceId: deviceId, namespace: namespace)
    }

    private func userTimeZone(_ user: String) throws -> TimeZone {
        let name = try directory.user(user, namespace: namespace)?.timeZone ?? "UTC"
        return TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!
    }

    func setting(_ setting: Setting) throws -> Bool {
        try scope.settings.value(setting, namespace: namespace) != "false"
    }

    private func dailyLimit() throws -> Int? {
        try scope.settings.value(.dailyNotificationLimit, namespace: namespace).flatMap(Int.init)
    }

    /// The user's local calendar day of `at`, `YYYY-MM-DD`.
    static func day(_ at: Int64, in zone: TimeZone) -> String {
        let identifier = zone.identifier
        if let known = recentDays.withLock({ $0[identifier] }), known.contains(at) { return known.label }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(at) / 1_000_000)
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let label = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        if let interval = calendar.dateInterval(of: .day, for: date) {
            let day = LocalDay(
                start: Int64((interval.start.timeIntervalSince1970 * 1_000_000).rounded()),
                end: Int64((interval.end.timeIntervalSince1970 * 1_000_000).rounded()), label: label)
            if day.contains(at) {
                recentDays.withLock { days in
                    if days.count >= 1_000 { days.removeAll() }
                    days[identifier] = day
                }
            }
        }
        return label
    }

    /// A calendar day of one time zone: `[start, end)` in microseconds since 1970.
    struct LocalDay {
        var start: Int64
        var end: Int64
        var label: String

        func contains(_ at: Int64) -> Bool { start <= at && at < end }
    }

    /// The last day asked for in each zone: a run of fixes and decisions asks for the same few days, and working one
    /// out through `Calendar` took 3 % of the writer thread on the location route (bench http-locations).
    private static let recentDays = Mutex<[String: LocalDay]>([:])

    /// The last NUL-terminated part of a key.
    static func lastComponent(_ key: UnsafeRawBufferPointer) -> String {
        lastComponent(Array(key))
    }

    static func lastComponent(_ key: [UInt8]) -> String {
        let body = key.last == 0 ? key.dropLast() : key[...]
        let start = body.lastIndex(of: 0).map { $0 + 1 } ?? body.startIndex
        return String(decoding: body[start...], as: UTF8.self)
    }
}
