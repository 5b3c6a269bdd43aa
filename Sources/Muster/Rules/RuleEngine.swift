import EventLog
import Foundation
import Geo
import MusterWire

/// Decides whom to tell what when devices move (seed 004, "Area rule"): location fixes and beacon
/// sightings become area transitions; each transition runs the area's rules — latch time,
/// counters, every IF condition, then the server hook and the user notification.
///
/// Decisions run on the writer, so the counters and quotas they read cannot change under them.
/// The server hook is called between two transactions: the first records that the rule waits for
/// it, the second its answer, so a restart resumes waiting hooks (`resumeServerHooks`).
public struct RuleEngine: Sendable {
    let log: EventLog
    let cache = AreaCache()
    public let hook: ServerHook

    public init(log: EventLog, hook: ServerHook = ServerHook()) {
        self.log = log
        self.hook = hook
    }

    /// A device's location fix.
    public struct LocationReport: Sendable, Hashable {
        public var user: String
        public var deviceId: String
        public var latitude: Double
        public var longitude: Double
        public var accuracy: Double?
        /// When the fix was taken; now when nil.
        public var at: Date?
        public var namespace: String

        public init(
            user: String, deviceId: String, latitude: Double, longitude: Double, accuracy: Double? = nil,
            at: Date? = nil, namespace: String = Names.defaultNamespace
        ) {
            self.user = user
            self.deviceId = deviceId
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
            self.at = at
            self.namespace = namespace
        }
    }

    /// A device's sighting of an iBeacon.
    public struct BeaconReport: Sendable, Hashable {
        public var user: String
        public var deviceId: String
        public var proximityUUID: String
        public var major: Int
        public var minor: Int
        public var rssi: Int
        /// The beacon's calibrated power at 1 m (the advertisement's last byte); -59 dBm when unknown.
        public var measuredPower: Int
        /// How close the device itself judged the beacon (iOS ranging's CLProximity); nil: estimated from `rssi`
        /// and `measuredPower`.
        public var proximity: BeaconProximity?
        public var at: Date?
        public var namespace: String

        public init(
            user: String, deviceId: String, proximityUUID: String, major: Int, minor: Int, rssi: Int,
            measuredPower: Int = -59, proximity: BeaconProximity? = nil, at: Date? = nil,
            namespace: String = Names.defaultNamespace
        ) {
            self.user = user
            self.deviceId = deviceId
            self.proximityUUID = proximityUUID
            self.major = major
            self.minor = minor
            self.rssi = rssi
            self.measuredPower = measuredPower
            self.proximity = proximity
            self.at = at
            self.namespace = namespace
        }
    }

    /// An entry or exit the device detected itself (iOS / Android region monitoring).
    public struct TransitionReport: Sendable, Hashable {
        public var user: String
        public var deviceId: String
        public var area: String
        /// The area's kind; nil when the id names one area only (an id naming both is refused).
        public var kind: Area.Kind?
        /// `on_entry` or `on_exit`.
        public var trigger: String
        public var at: Date?
        /// Where the device was, for `{lat}` / `{lng}` in URL templates.
        public var latitude: Double?
        public var longitude: Double?
        public var namespace: String

        public init(
            user: String, deviceId: String, area: String, kind: Area.Kind? = nil, trigger: String, at: Date? = nil,
            latitude: Double? = nil, longitude: Double? = nil, namespace: String = Names.defaultNamespace
        ) {
            self.user = user
            self.deviceId = deviceId
            self.area = area
            self.kind = kind
            self.trigger = trigger
            self.at = at
            self.latitude = latitude
            self.longitude = longitude
            self.namespace = namespace
        }
    }

    /// Records an entry or exit the device reported and runs the area's rules. A repeated entry
    /// (already inside) or an exit while outside changes nothing and says so in `ignored`.
    public func report(_ reported: TransitionReport) async throws -> LocationAnswer {
        try Names.validate(reported.namespace, as: "namespace")
        try Names.validate(reported.deviceId, as: "deviceId", field: "deviceId", maximumBytes: 256)
        guard FenceTrigger(rawValue: reported.trigger) != nil else {
            throw MusterError(
                .invalidArgument, "trigger: expected on_entry or on_exit, not \(String(reflecting: reported.trigger))",
                field: "trigger")
        }
        var given: Coordinate?
        if let latitude = reported.latitude, let longitude = reported.longitude {
            do {
                given = try Coordinate(latitude: latitude, longitude: longitude)
            } catch {
                throw MusterError(
                    .invalidArgument, "\(error.code == .latitudeOutOfRange ? "lat" : "lng"): \(error.message)")
            }
        }
        let location = given
        let (evaluation, hooks) = try await log.perform { scope in
            let run = try RuleRun(scope: scope, namespace: reported.namespace, user: reported.user, cache: cache)
            let at = reported.at.map(Self.microseconds) ?? scope.now
            try run.requireOwnDevice(reported.deviceId)
            try run.fireDueLatches(user: reported.user, deviceId: reported.deviceId, upTo: at)
            try run.reported(reported, at: at, location: location)
            return (run.evaluation, run.hooks)
        }
        return try await evaluation.merging(callServerHooks(hooks))
    }

    /// Seconds without a sighting after which a device has left a beacon region.
    public static let beaconExitAfter: Int64 = 30

    /// Records a location fix and runs the rules of every area it enters or leaves.
    public func report(_ location: LocationReport) async throws -> LocationAnswer {
        try Names.validate(location.namespace, as: "namespace")
        try Names.validate(location.deviceId, as: "deviceId", field: "deviceId", maximumBytes: 256)
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: location.latitude, longitude: location.longitude)
        } catch {
            let field = error.code == .latitudeOutOfRange ? "lat" : "lng"
            throw MusterError(.invalidArgument, "\(field): \(error.message)", field: field)
        }
        if let accuracy = location.accuracy, !(accuracy >= 0 && accuracy.isFinite) {
            throw MusterError(.invalidArgument, "accuracy: expected metres ≥ 0, not \(accuracy)", field: "accuracy")
        }
        let fix = Fix(coordinate, accuracy: location.accuracy)
        let prepared = try log.read { snapshot in
            try PreparedFix(
                snapshot, cache: cache, namespace: location.namespace, user: location.user,
                deviceId: location.deviceId, fix: fix)
        }
        return try await locate(location, fix: fix, prepared: prepared)
    }

    /// Records a checked fix on the writer, with the crossings worked out before when they still hold.
    func locate(_ location: LocationReport, fix: Fix, prepared: PreparedFix?) async throws -> LocationAnswer {
        let (evaluation, hooks) = try await log.perform { scope in
            let run = try RuleRun(scope: scope, namespace: location.namespace, user: location.user, cache: cache)
            let current = try prepared.flatMap { try $0.isCurrent(in: run, deviceId: location.deviceId) ? $0 : nil }
            let at = location.at.map(Self.microseconds) ?? scope.now
            try run.requireOwnDevice(location.deviceId)
            try run.fireDueLatches(user: location.user, deviceId: location.deviceId, upTo: at)
            try run.locate(deviceId: location.deviceId, fix: fix, at: at, prepared: current)
            return (run.evaluation, run.hooks)
        }
        return try await evaluation.merging(callServerHooks(hooks))
    }

    /// Records a beacon sighting; enters the regions it belongs to and leaves those not seen for
    /// `beaconExitAfter` seconds.
    public func report(_ sighting: BeaconReport) async throws -> LocationAnswer {
        try Names.validate(sighting.namespace, as: "namespace")
        try Names.validate(sighting.deviceId, as: "deviceId", field: "deviceId", maximumBytes: 256)
        guard let uuid = UUID(uuidString: sighting.proximityUUID) else {
            throw MusterError(
                .invalidArgument, "uuid: expected a proximity UUID like F2A74FC4-7625-44DB-9B08-CB7E130B2029",
                field: "uuid")
        }
        for (field, value) in [("major", sighting.major), ("minor", sighting.minor)] where !(0...65535).contains(value)
        {
            throw MusterError(
                .invalidArgument, "\(field): expected a number from 0 to 65535, not \(value)", field: field)
        }
        for (field, value) in [("rssi", sighting.rssi), ("tx-power", sighting.measuredPower)]
        where !(-150...20).contains(value) {
            throw MusterError(.invalidArgument, "\(field): expected dBm from -150 to 20, not \(value)", field: field)
        }
        var copy = sighting
        copy.proximityUUID = uuid.uuidString
        let normalised = copy
        let (evaluation, hooks) = try await log.perform { scope in
            let run = try RuleRun(scope: scope, namespace: sighting.namespace, user: sighting.user, cache: cache)
            let at = sighting.at.map(Self.microseconds) ?? scope.now
            try run.requireOwnDevice(sighting.deviceId)
            try run.fireDueLatches(user: sighting.user, deviceId: sighting.deviceId, upTo: at)
            try run.sight(normalised, at: at)
            return (run.evaluation, run.hooks)
        }
        return try await evaluation.merging(callServerHooks(hooks))
    }

    /// Evaluates every rule whose latch time has ended by `now` (the log's clock when nil), in
    /// the order they end; what a restart re-arms. Returns what they decided.
    @discardableResult
    public func fireDueLatches(now: Date? = nil, limit: Int = 1000) async throws -> LocationAnswer {
        // A read first: an idle timer does not take the writer.
        guard let next = try nextLatchEnd(), next <= (now.map(Self.microseconds) ?? Self.microseconds(Date())) else {
            return LocationAnswer()
        }
        let (evaluation, hooks) = try await log.perform { scope in
            let upTo = now.map(Self.microseconds) ?? scope.now
            let run = try RuleRun(scope: scope, cache: cache)
            try run.fireDueLatches(user: nil, deviceId: nil, upTo: upTo, limit: limit)
            return (run.evaluation, run.hooks)
        }
        return try await evaluation.merging(callServerHooks(hooks))
    }

    /// Takes every device out of the beacon regions it has not seen for `beaconExitAfter` seconds
    /// by `now` (the log's clock when nil), running their exit rules; what the timer does between
    /// reports.
    @discardableResult
    public func expireBeaconRegions(now: Date? = nil) async throws -> LocationAnswer {
        let stale: [(namespace: String, user: String, deviceId: String, area: String)] = try log.read { reader in
            let cutoff = (now.map(Self.microseconds) ?? Self.microseconds(Date())) - Self.beaconExitAfter * 1_000_000
            let areas = try reader.areas
            return try reader.rules.beaconPresences(seenBefore: cutoff).filter { namespace, _, _, area in
                try areas.area(Area.Identity(kind: .beacon, id: area), namespace: namespace) != nil
            }
        }
        guard !stale.isEmpty else { return LocationAnswer() }
        let (evaluation, hooks) = try await log.perform { scope in
            var evaluation = LocationAnswer()
            var hooks: [PendingHook] = []
            let upTo = now.map(Self.microseconds) ?? scope.now
            for (namespace, user, deviceId, area) in stale {
                let run = try RuleRun(scope: scope, namespace: namespace, cache: cache)
                try run.expireBeaconRegion(user: user, deviceId: deviceId, area: area, at: upTo)
                evaluation = evaluation.merging(run.evaluation)
                hooks += run.hooks
            }
            return (evaluation, hooks)
        }
        return try await evaluation.merging(callServerHooks(hooks))
    }

    /// When the next latch ends, µs since 1970; nil when none waits.
    public func nextLatchEnd() throws -> Int64? {
        try log.read { try $0.rules.nextLatchEnd() }
    }

    /// Calls the server hooks recorded as waiting (after a restart, or a failure mid-way).
    @discardableResult
    public func resumeServerHooks() async throws -> LocationAnswer {
        let hooks = try log.read { reader in
            try reader.rules.awaitingServer().compactMap { position -> PendingHook? in
                guard let event = try reader.event(at: position), let record = try RuleEvaluated.decode(event),
                    let url = record.serverURL
                else { return nil }
                return PendingHook(record: record, namespace: event.namespace, url: url, position: position)
            }
        }
        return try await callServerHooks(hooks)
    }

    func callServerHooks(_ hooks: [PendingHook]) async throws -> LocationAnswer {
        var evaluation = LocationAnswer()
        for pending in hooks {
            let answer = await hook.fetch(pending.url)
            let part = try await log.perform { scope in
                let run = try RuleRun(scope: scope, namespace: pending.namespace, cache: cache)
                try run.complete(pending, answer: answer)
                return run.evaluation
            }
            evaluation = evaluation.merging(part)
        }
        return evaluation
    }

    static func microseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }
}

/// A rule waiting for its server hook's answer.
struct PendingHook: Sendable {
    var record: RuleEvaluated
    var namespace: String
    var url: String
    /// Position of the record that says it waits.
    var position: UInt64
}
