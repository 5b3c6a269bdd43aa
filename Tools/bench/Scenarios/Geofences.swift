import Foundation
import Geo

/// Location updates against 100,000 circular fences in process — `Geo.PresenceDetector` over a
/// `CircleIndex`, every device's inside-set and previous fix in memory, on one thread — against
/// the same point queries on redis-server in the same run: `GEOSEARCH … BYRADIUS <largest radius> m
/// WITHDIST`, pipelined, filtered by each fence's own radius client-side so both give the same
/// fences (checked on a sample). Target ≥ 500,000 updates/s on one core and ≥ 5× Redis.
struct Geofences: Scenario {
    let name = "geofences"

    /// The grid the product builds (`CircleIndex()`), and a finer one measured for context.
    static let defaultCellSize = CircleIndex<Int>().cellSize
    static let fineCellSize = 0.002
    /// GEOSEARCH commands sent before their replies are read.
    static let pipelineDepth = 500
    /// Fences per GEOADD command.
    static let fencesPerAdd = 1_000
    /// How far two distances may disagree at a fence's edge, in metres: redis stores centres as
    /// 52-bit geohashes (≈ 0.6 m cells) and measures on a sphere of 6,372,797.6 m where Geo uses the
    /// mean radius 6,371,008.8 m (0.03 %, 0.14 m at 500 m).
    static let edgeTolerance = 1.0

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        guard let redis = RedisPeer.locate() else {
            throw BenchError.command(
                "redis-server is not installed: run Tools/install-deps (it installs Debian's redis-server)")
        }
        let sizes =
            settings.smoke
            ? (fences: 2_000, devices: 100, steps: 20, verified: 200)
            : (fences: 100_000, devices: 10_000, steps: 100, verified: 5_000)
        let workload = try GeofenceWorkload(fences: sizes.fences, devices: sizes.devices, steps: sizes.steps)

        let budget = settings.seconds
        let muster = try await onThread("geofences-muster") {
            try Self.measureMuster(workload, cellSize: Self.defaultCellSize, budget: budget)
        }
        let fine = try await onThread("geofences-muster") {
            try Self.measureMuster(workload, cellSize: Self.fineCellSize, budget: budget)
        }
        // The product's configuration: fences named by strings, and the denser layout of http-locations.
        let dense = try GeofenceWorkload.dense(fences: sizes.fences, devices: sizes.devices, steps: sizes.steps)
        let variants = try await onThread("geofences-muster") {
            (
                strings: Self.measureDetector(workload, id: { "fence-\($0)" }, budget: budget),
                denseIntegers: Self.measureDetector(dense, id: { $0 }, budget: budget),
                denseStrings: Self.measureDetector(dense, id: { "fence-\($0)" }, budget: budget)
            )
        }
        let peer = try await onThread("geofences-redis") {
            try Self.measureRedis(redis, workload, index: muster.index, verified: sizes.verified, budget: budget)
        }

        let updates = Figure(label: "muster PresenceDetector", value: muster.updatesPerSecond, unit: "updates/s")
        let queries = Figure(label: "muster CircleIndex.containing", value: muster.queriesPerSecond, unit: "queries/s")
        let baseline = Figure(label: "redis GEOSEARCH + radius filter", value: peer.queriesPerSecond, unit: "queries/s")
        report.comparisons.append(Comparison("location update / redis", figure: updates, baseline: baseline))
        report.comparisons.append(Comparison("containing query / redis", figure: queries, baseline: baseline))
        report.context.append(
            Figure(label: "crossings found in \(muster.updates) updates", value: Double(muster.crossings), unit: ""))
        report.context.append(
            Figure(label: "index candidates per fix, average", value: muster.averageCandidates, unit: ""))
        let finer = "with \(Self.fineCellSize)° cells"
        report.context.append(
            Figure(label: "PresenceDetector \(finer)", value: fine.updatesPerSecond, unit: "updates/s"))
        report.context.append(
            Figure(label: "CircleIndex.containing \(finer)", value: fine.queriesPerSecond, unit: "queries/s"))
        report.context.append(
            Figure(label: "index candidates per fix \(finer)", value: fine.averageCandidates, unit: ""))
        report.context.append(
            Figure(label: "PresenceDetector, string ids", value: variants.strings, unit: "updates/s"))
        report.context.append(
            Figure(
                label: "PresenceDetector, http-locations' layout, integer ids", value: variants.denseIntegers,
                unit: "updates/s"))
        report.context.append(
            Figure(
                label: "PresenceDetector, http-locations' layout, string ids", value: variants.denseStrings,
                unit: "updates/s"))
        report.context.append(
            Figure(label: "fences containing a fix, average", value: muster.averageContaining, unit: ""))
        report.context.append(
            Figure(label: "fences containing a fix, average, redis", value: peer.averageFound, unit: ""))
        report.context.append(Figure(label: "building the CircleIndex", value: muster.indexRate, unit: "fences/s"))
        report.context.append(Figure(label: "redis GEOADD, pipelined", value: peer.addRate, unit: "fences/s"))
        if let memory = peer.usedMegabytes {
            report.context.append(Figure(label: "redis used_memory", value: memory, unit: "MB"))
        }
        let ratio = muster.updatesPerSecond / peer.queriesPerSecond
        report.notes.append(
            "\(sizes.fences) fences (20–500 m), \(sizes.devices) devices × \(sizes.steps) fixes (walks of 3–30 m); "
                + "the product's grid of \(Self.defaultCellSize)° cells; muster fed \(muster.updates) fixes, "
                + "redis answered \(peer.queries), \(Self.pipelineDepth) per pipeline")
        report.notes.append(
            "same fences on \(peer.verified) sampled fixes (\(peer.edgeCases) differed only within "
                + "\(Self.edgeTolerance) m of an edge); \(peer.version)")
        report.notes.append(
            String(format: "%.0f updates/s: target ≥ 500,000 ", muster.updatesPerSecond)
                + "\(muster.updatesPerSecond >= 500_000 ? "met" : "not met"); "
                + String(format: "×%.1f redis: target ≥ 5× ", ratio) + "\(ratio >= 5 ? "met" : "not met"); "
                + "muster on one thread, redis-server and its client share the 2 cores")
    }

    // MARK: Muster

    struct MusterRun: Sendable {
        var index: CircleIndex<Int>
        var indexRate: Double
        var updatesPerSecond: Double
        var updates: Int
        var crossings: Int
        var queriesPerSecond: Double
        var averageContaining: Double
        var averageCandidates: Double
    }

    /// Feeds the fixes in order through the detector, keeping each device's inside-set and previous
    /// fix, until all are fed or `budget` seconds pass; then asks the index alone for the fences
    /// containing each fix, under the same budget.
    static func measureMuster(_ workload: GeofenceWorkload, cellSize: Double, budget: Double) throws -> MusterRun {
        let built = ContinuousClock.now
        var index = CircleIndex<Int>(cellSize: cellSize)
        for (id, circle) in workload.circles.enumerated() { index.insert(circle, id: id) }
        let indexRate = Double(workload.circles.count) / seconds(since: built)

        let detector = PresenceDetector(fences: index)
        var inside = [Set<Int>](repeating: [], count: workload.devices)
        var previous = [Coordinate?](repeating: nil, count: workload.devices)
        var crossings = 0
        var updates = 0
        let start = ContinuousClock.now
        while updates < workload.fixes.count && (updates % 256 != 0 || seconds(since: start) < budget) {
            let point = workload.fixes[updates]
            let device = updates % workload.devices
            let found = detector.crossings(inside: inside[device], previous: previous[device], fix: Fix(point))
            for crossing in found {
                if crossing.trigger == .entry {
                    inside[device].insert(crossing.id)
                } else {
                    inside[device].remove(crossing.id)
                }
            }
            previous[device] = point
            crossings += found.count
            updates += 1
        }
        let updatesPerSecond = Double(updates) / seconds(since: start)

        var containing = 0
        var queries = 0
        let queried = ContinuousClock.now
        while queries < workload.fixes.count && (queries % 256 != 0 || seconds(since: queried) < budget) {
            containing += index.containing(workload.fixes[queries]).count
            queries += 1
        }
        let queriesPerSecond = Double(queries) / seconds(since: queried)
        let sample = workload.fixes.prefix(10_000)
        let candidates = sample.reduce(0) { $0 + index.candidates(near: $1).count }
        return MusterRun(
            index: index, indexRate: indexRate, updatesPerSecond: updatesPerSecond, updates: updates,
            crossings: crossings, queriesPerSecond: queriesPerSecond,
            averageContaining: Double(containing) / Double(max(queries, 1)),
            averageCandidates: Double(candidates) / Double(max(sample.count, 1)))
    }

    /// The detector alone, with each fence's id made by `id` (the product names fences by strings): updates/s.
    static func measureDetector<ID: Hashable & Sendable & Comparable>(
        _ workload: GeofenceWorkload, id: (Int) -> ID, budget: Double
    ) -> Double {
        var index = CircleIndex<ID>()
        for (n, circle) in workload.circles.enumerated() { index.insert(circle, id: id(n)) }
        let detector = PresenceDetector(fences: index)
        var inside = [Set<ID>](repeating: [], count: workload.devices)
        var previous = [Coordinate?](repeating: nil, count: workload.devices)
        var updates = 0
        let start = ContinuousClock.now
        while updates < workload.fixes.count && (updates % 256 != 0 || seconds(since: start) < budget) {
            let point = workload.fixes[updates]
            let device = updates % workload.devices
            for crossing in detector.crossings(inside: inside[device], previous: previous[device], fix: Fix(point)) {
                if crossing.trigger == .entry {
                    inside[device].insert(crossing.id)
                } else {
                    inside[device].remove(crossing.id)
                }
            }
            previous[device] = point
            updates += 1
        }
        return Double(updates) / seconds(since: start)
    }

    // MARK: Redis

    struct RedisRun: Sendable {
        var queriesPerSecond: Double
        var queries: Int
        var addRate: Double
        var averageFound: Double
        var verified: Int
        var edgeCases: Int
        var usedMegabytes: Double?
        var version: String
    }

    /// Loads the fences with GEOADD, checks a sample of fixes gives the same fences as `index`,
    /// then answers fixes in order, pipelined, until all are answered or `budget` seconds pass.
    static func measureRedis(
        _ peer: RedisPeer, _ workload: GeofenceWorkload, index: CircleIndex<Int>, verified: Int, budget: Double
    ) throws -> RedisRun {
        let version = try peer.version()
        return try peer.withServer { redis in
            let loaded = ContinuousClock.now
            var first = 0
            while first < workload.circles.count {
                let range = first..<min(first + fencesPerAdd, workload.circles.count)
                redis.append(
                    ["GEOADD", "fences"]
                        + range.flatMap { id -> [String] in
                            let center = workload.circles[id].center
                            return ["\(center.longitude)", "\(center.latitude)", "\(id)"]
                        })
                first = range.upperBound
            }
            try redis.flush()
            var added = 0
            for _ in stride(from: 0, to: workload.circles.count, by: fencesPerAdd) {
                guard case .integer(let count) = try redis.readReply() else {
                    throw BenchError.parse("GEOADD did not answer with an integer")
                }
                added += count
            }
            guard added == workload.circles.count else {
                throw BenchError.command("GEOADD stored \(added) of \(workload.circles.count) fences")
            }
            let addRate = Double(added) / seconds(since: loaded)

            let radii = workload.circles.map(\.radius)
            let reach = String(workload.maximumRadius)
            func search(_ points: ArraySlice<Coordinate>, _ body: (Int, Int) -> Void) throws {
                for point in points {
                    redis.append([
                        "GEOSEARCH", "fences", "FROMLONLAT", "\(point.longitude)", "\(point.latitude)", "BYRADIUS",
                        reach, "m", "WITHDIST",
                    ])
                }
                try redis.flush()
                for n in points.indices {
                    try redis.readGeoSearch { id, metres in
                        if id >= 0 && id < radii.count && metres <= radii[id] { body(n, id) }
                    }
                }
            }

            let sample = workload.fixes.prefix(verified)
            var sets = [Set<Int>](repeating: [], count: sample.count)
            try search(sample) { n, id in sets[n].insert(id) }
            var edgeCases = 0
            for (n, point) in sample.enumerated() {
                for id in sets[n].symmetricDifference(index.containing(point)) {
                    let circle = workload.circles[id]
                    let off = abs(circle.center.distance(to: point) - circle.radius)
                    guard off <= edgeTolerance else {
                        throw BenchError.command(
                            "redis and Geo disagree on fence \(id) for fix \(n) \(point): "
                                + "\(String(format: "%.2f", off)) m from its edge")
                    }
                    edgeCases += 1
                }
            }

            var answered = 0
            var found = 0
            let start = ContinuousClock.now
            while answered < workload.fixes.count && seconds(since: start) < budget {
                let batch = workload.fixes[answered..<min(answered + pipelineDepth, workload.fixes.count)]
                try search(batch) { _, _ in found += 1 }
                answered += batch.count
            }
            let queriesPerSecond = Double(answered) / seconds(since: start)

            var usedMegabytes: Double?
            if case .bulk(let bytes?) = try redis.command(["INFO", "memory"]) {
                let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
                    .first { $0.hasPrefix("used_memory:") }
                usedMegabytes = line.flatMap { Double($0.dropFirst("used_memory:".count)) }.map { $0 / 1e6 }
            }
            return RedisRun(
                queriesPerSecond: queriesPerSecond, queries: answered, addRate: addRate,
                averageFound: Double(found) / Double(max(answered, 1)), verified: sample.count,
                edgeCases: edgeCases, usedMegabytes: usedMegabytes, version: version)
        }
    }
}

/// The fences and device walks both sides answer, from a fixed seed: a ~100 km × 100 km region
/// around Paris with most fences spread over it, a fifth clustered in 20 towns and a tenth spread
/// over ±300 km; devices start in a town or anywhere in the region and walk 3–30 m per fix.
struct GeofenceWorkload: Sendable {
    /// Fence `n` is `circles[n]`.
    var circles: [Circle]
    var maximumRadius: Double
    var devices: Int
    /// Step-major: fix `step * devices + device`.
    var fixes: [Coordinate]

    static let center = (latitude: 48.85, longitude: 2.35)
    static let metresPerDegree = Earth.meanRadius * .pi / 180

    /// The layout of `http-locations`: fences of 20–200 m spread uniformly over 0.15° × 0.2° of Paris (a fix is in
    /// about 16 of them), devices starting anywhere in it and walking 3–30 m per fix.
    static func dense(fences: Int, devices: Int, steps: Int, seed: UInt64 = 2_026) throws -> GeofenceWorkload {
        var random = WyRand(seed: seed)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        let circles = try (0..<fences).map { _ in
            try Circle(
                center: Coordinate(latitude: 48.80 + unit() * 0.15, longitude: 2.25 + unit() * 0.2),
                radius: 20 + unit() * 180)
        }
        var positions = (0..<devices).map { _ in (latitude: 48.80 + unit() * 0.15, longitude: 2.25 + unit() * 0.2) }
        var fixes: [Coordinate] = []
        fixes.reserveCapacity(devices * steps)
        for _ in 0..<steps {
            for device in 0..<devices {
                let length = 3 + unit() * 27
                let angle = unit() * 2 * .pi
                positions[device] = Self.moved(positions[device], length * cos(angle), length * sin(angle))
                fixes.append(try Self.coordinate(positions[device]))
            }
        }
        return GeofenceWorkload(circles: circles, maximumRadius: 200, devices: devices, fixes: fixes)
    }

    init(circles: [Circle], maximumRadius: Double, devices: Int, fixes: [Coordinate]) {
        self.circles = circles
        self.maximumRadius = maximumRadius
        self.devices = devices
        self.fixes = fixes
    }

    init(fences: Int, devices: Int, steps: Int, seed: UInt64 = 2_026) throws {
        var random = WyRand(seed: seed)
        let towns = (0..<20).map { _ in Self.offset(Self.uniform(&random, 50_000), Self.uniform(&random, 50_000)) }
        circles = try (0..<fences).map { n in
            let kind = n % 10
            let place: (latitude: Double, longitude: Double)
            if kind < 2 {
                let town = towns[Int(random.next() % UInt64(towns.count))]
                place = Self.moved(town, Self.gaussian(&random) * 1_500, Self.gaussian(&random) * 1_500)
            } else if kind < 3 {
                place = Self.offset(Self.uniform(&random, 300_000), Self.uniform(&random, 300_000))
            } else {
                place = Self.offset(Self.uniform(&random, 50_000), Self.uniform(&random, 50_000))
            }
            let radius = 20 + Double(random.next() % 480_001) / 1_000
            return try Circle(center: Self.coordinate(place), radius: radius)
        }
        maximumRadius = circles.map(\.radius).max() ?? 0
        self.devices = devices

        var positions = (0..<devices).map { device -> (latitude: Double, longitude: Double) in
            guard device % 2 == 0 else {
                return Self.offset(Self.uniform(&random, 50_000), Self.uniform(&random, 50_000))
            }
            let town = towns[Int(random.next() % UInt64(towns.count))]
            return Self.moved(town, Self.gaussian(&random) * 1_500, Self.gaussian(&random) * 1_500)
        }
        fixes = []
        fixes.reserveCapacity(devices * steps)
        for _ in 0..<steps {
            for device in 0..<devices {
                let length = 3 + Double(random.next() % 27_001) / 1_000
                let angle = Double(random.next() % 1_000_000) / 1_000_000 * 2 * .pi
                positions[device] = Self.moved(positions[device], length * cos(angle), length * sin(angle))
                fixes.append(try Self.coordinate(positions[device]))
            }
        }
    }

    /// A uniform value in -half...half.
    static func uniform(_ random: inout WyRand, _ half: Double) -> Double {
        (Double(random.next() >> 11) / Double(1 << 53) * 2 - 1) * half
    }

    /// A standard normal value (Box–Muller).
    static func gaussian(_ random: inout WyRand) -> Double {
        let u = (Double(random.next() >> 11) + 1) / (Double(1 << 53) + 1)
        let v = Double(random.next() >> 11) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// The point `north` and `east` metres from the region's centre.
    static func offset(_ north: Double, _ east: Double) -> (latitude: Double, longitude: Double) {
        moved(center, north, east)
    }

    /// `place` moved `north` and `east` metres on a local plane.
    static func moved(_ place: (latitude: Double, longitude: Double), _ north: Double, _ east: Double) -> (
        latitude: Double, longitude: Double
    ) {
        let latitude = min(max(place.latitude + north / metresPerDegree, -80), 80)
        let longitude = place.longitude + east / (metresPerDegree * cos(latitude * .pi / 180))
        return (latitude, longitude)
    }

    static func coordinate(_ place: (latitude: Double, longitude: Double)) throws -> Coordinate {
        try Coordinate(latitude: place.latitude, longitude: place.longitude)
    }
}
