/// Picks the beacon a device is nearest to from a stream of RSSI sightings, with hysteresis like a
/// GSM hand-over between base stations (seed 004: "clearly closer to beacon 1: trigger beacon 1 …
/// undetermined: do nothing … a parallel to what happen with hand-over in GSM networks").
///
/// - **Smoothing: median of the last `sampleCount` readings within `sampleWindow` seconds** of the
///   beacon's newest one. BLE RSSI from a phone held still wanders by σ ≈ 3–6 dB and now and then
///   one reading is 10–20 dB off (multipath, a body in the way); iOS ranging gives one reading per
///   beacon per second. With the defaults (5 readings, 5 s) a median ignores any 2 outliers of 5
///   entirely and follows a real step (walking to another shelf) after 3 readings, about 3 s. An
///   exponential moving average with α = 0.3 would move 6 dB — the whole margin — on a single
///   20 dB outlier, and needs 6.5 readings to follow 90 % of a step.
/// - **Hand-over margin: `margin` dB, 6 by default.** Another beacon takes over from the serving
///   one only when its smoothed RSSI is more than `margin` above the serving one's ("clearly
///   closer"); with the log-distance model of `BeaconProximity` (n = 2) 6 dB is half the distance.
/// - **No serving beacon:** the strongest becomes serving when it is alone or more than `margin`
///   above the second; otherwise the answer is `undetermined` and nothing is triggered.
/// - **Warm-up:** a beacon takes part in the decision once it has `minimumSightings` readings in
///   its window, so one stray reading of a beacon just heard never triggers it. Until then it is
///   listed in `inRange` with `isSettled` false.
/// - **Dropping:** a beacon not heard for more than `timeout` seconds leaves the vector; when the
///   serving beacon leaves, the others are decided on as if none served.
///
/// Pure: time comes from the sightings (or `advance(to:)`), never from a clock or a timer. A
/// sighting earlier than one already seen does not move the time back.
public struct BeaconHandOver<ID: Hashable & Comparable & Sendable>: Sendable {
    /// dB by which another beacon must exceed the serving one to take over.
    public let margin: Double
    /// Readings per beacon the median is taken over.
    public let sampleCount: Int
    /// Seconds before a beacon's newest reading beyond which older readings no longer count.
    public let sampleWindow: Double
    /// Seconds without a reading after which a beacon is out of range.
    public let timeout: Double
    /// Readings in its window a beacon needs before it can serve.
    public let minimumSightings: Int

    /// The beacon serving now, if any.
    public private(set) var serving: ID?
    /// The latest time seen in a sighting or `advance(to:)`; nil before the first.
    public private(set) var now: Double?

    private var tracks: [ID: Track] = [:]

    /// Creates a hand-over with no beacon in range.
    ///
    /// - Parameters:
    ///   - margin: dB by which another beacon must be stronger than the serving one to take over.
    ///   - sampleCount: readings per beacon whose median is compared (1 turns smoothing off).
    ///   - sampleWindow: seconds of readings, back from a beacon's newest, that the median may use.
    ///   - timeout: seconds of silence after which a beacon is out of range.
    ///   - minimumSightings: readings in the window before a beacon can serve (at most `sampleCount`).
    public init(
        margin: Double = 6, sampleCount: Int = 5, sampleWindow: Double = 5, timeout: Double = 10,
        minimumSightings: Int = 3
    ) {
        precondition(margin.isFinite && margin >= 0, "margin \(margin) dB is not a finite, non-negative number")
        precondition(sampleCount >= 1, "sampleCount \(sampleCount) is not at least 1")
        precondition(sampleWindow.isFinite && sampleWindow >= 0, "sampleWindow \(sampleWindow) s is not finite, ≥ 0")
        precondition(timeout.isFinite && timeout >= 0, "timeout \(timeout) s is not finite, ≥ 0")
        precondition(
            (1...sampleCount).contains(minimumSightings),
            "minimumSightings \(minimumSightings) is not within 1...sampleCount (\(sampleCount))")
        self.margin = margin
        self.sampleCount = sampleCount
        self.sampleWindow = sampleWindow
        self.timeout = timeout
        self.minimumSightings = minimumSightings
    }

    /// The nearest beacon as decided now.
    public var nearest: NearestBeacon<ID> {
        if let serving { return .beacon(serving) }
        return tracks.isEmpty ? .noneInRange : .undetermined
    }

    /// The beacons in range, strongest smoothed RSSI first (equal ones by id).
    public var inRange: [BeaconInRange<ID>] {
        tracks.map { id, track in
            BeaconInRange(
                id: id, smoothedRSSI: track.median, lastRSSI: track.readings.last!.rssi, lastSeen: track.lastSeen,
                samples: track.readings.count, isSettled: track.readings.count >= minimumSightings)
        }.sorted { ($0.smoothedRSSI, $1.id) > ($1.smoothedRSSI, $0.id) }
    }

    /// The smoothed RSSI of `id` in dBm, nil when it is not in range.
    public func smoothedRSSI(of id: ID) -> Double? { tracks[id]?.median }

    /// Takes in one reading and decides again. Returns the change of serving beacon, if there is one.
    ///
    /// A beacon heard again after more than `timeout` seconds of silence comes back as a new one:
    /// it left the vector first, and warms up again.
    @discardableResult
    public mutating func record(_ sighting: BeaconSighting<ID>) -> ServingBeaconChange<ID>? {
        record(contentsOf: CollectionOfOne(sighting))
    }

    /// Takes in the readings of one scan (iOS ranging reports every beacon heard at once) and then
    /// decides, once: beacons heard in the same scan warm up together, whatever their order.
    @discardableResult
    public mutating func record(contentsOf sightings: some Sequence<BeaconSighting<ID>>) -> ServingBeaconChange<ID>? {
        let usable = sightings.filter { $0.time.isFinite }
        guard let latest = usable.lazy.map(\.time).max() else { return nil }
        let before = serving
        moveTime(to: latest)
        for sighting in usable {
            // 0 or above is "no reading"; one already older than the timeout would leave at once.
            guard sighting.rssi < 0, let now, now - sighting.time <= timeout else { continue }
            tracks[sighting.id, default: Track()].add(
                sighting.rssi, at: sighting.time, window: sampleWindow, count: sampleCount)
        }
        return decide(since: before)
    }

    /// Takes in a reading of `id` at `rssi` dBm at `time` seconds and decides again.
    @discardableResult
    public mutating func record(_ id: ID, rssi: Int, at time: Double) -> ServingBeaconChange<ID>? {
        record(BeaconSighting(id, rssi: rssi, at: time))
    }

    /// Moves the time on without a reading (a scan that heard nothing), dropping the beacons silent
    /// for more than `timeout`, and decides again.
    @discardableResult
    public mutating func advance(to time: Double) -> ServingBeaconChange<ID>? {
        guard time.isFinite else { return nil }
        let before = serving
        moveTime(to: time)
        return decide(since: before)
    }

    // MARK: Deciding

    /// Moves `now` forward (never back) and drops the beacons silent for more than `timeout`.
    private mutating func moveTime(to time: Double) {
        let now = max(self.now ?? time, time)
        self.now = now
        tracks = tracks.filter { now - $0.value.lastSeen <= timeout }
        if let current = serving, tracks[current] == nil { serving = nil }
    }

    /// Applies the hand-over rules to the beacons in range; returns the change since `before`.
    private mutating func decide(since before: ID?) -> ServingBeaconChange<ID>? {
        let ranked = tracks.filter { $0.value.readings.count >= minimumSightings }
            .map { (id: $0.key, rssi: $0.value.median) }
            .sorted { ($0.rssi, $1.id) > ($1.rssi, $0.id) }
        if let current = serving, let level = tracks[current]?.median {
            if let best = ranked.first(where: { $0.id != current }), best.rssi > level + margin {
                serving = best.id
            }
        } else if let best = ranked.first, ranked.count == 1 || best.rssi > ranked[1].rssi + margin {
            serving = best.id
        }
        return before == serving ? nil : ServingBeaconChange(from: before, to: serving)
    }

    /// One beacon's recent readings, oldest first.
    struct Track: Sendable {
        var readings: [(rssi: Int, time: Double)] = []
        var lastSeen = -Double.infinity

        mutating func add(_ rssi: Int, at time: Double, window: Double, count: Int) {
            let index = readings.lastIndex { $0.time <= time }.map { $0 + 1 } ?? 0
            readings.insert((rssi, time), at: index)
            lastSeen = max(lastSeen, time)
            readings.removeAll { lastSeen - $0.time > window }
            if readings.count > count { readings.removeFirst(readings.count - count) }
        }

        /// The median reading; the mean of the middle two for an even count.
        var median: Double {
            let sorted = readings.map(\.rssi).sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1
                ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
        }
    }
}
