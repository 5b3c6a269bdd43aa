import EventLog
import Forms
import Geo
import Synchronization

/// The areas of each namespace compiled for lookups — a spatial index over the geofences and the
/// list of beacon regions — rebuilt when the namespace's `areas` stream has a new version.
final class AreaCache: Sendable {
    struct Compiled: Sendable {
        var version: UInt64
        var areas: [Area.Identity: Area]
        /// The geofences, by id.
        var detector: PresenceDetector<String>
        var beaconRegions: [Area]
        var geotriggers: [CompiledGeotrigger]
    }

    /// A geotrigger ready to watch fixes: its fences (buffer included) indexed, the attributes each
    /// shows as `$fencefeature`, and the expression parsed.
    struct CompiledGeotrigger: Sendable {
        var geotrigger: Geotrigger
        var expression: MessageExpression?
        var detector: PresenceDetector<String>
        /// Polygon fences, checked one by one (a geotrigger has few).
        var polygons: [(id: String, polygon: Polygon)]
        var attributes: [String: ArcadeDictionary]
    }

    private let entries = Mutex<[String: Compiled]>([:])

    /// The version of the namespace's areas and geotriggers in a snapshot.
    static func version(_ namespace: String, _ snapshot: some LogSnapshot) throws -> UInt64 {
        try snapshot.streamVersion(namespace: namespace, stream: Streams.areas) << 32
            | snapshot.streamVersion(namespace: namespace, stream: Streams.geotriggers)
    }

    /// The compiled areas as of a snapshot when they are compiled already; nil otherwise. A read never compiles:
    /// a hundred requests missing at once would each compile them.
    func cached(_ namespace: String, _ snapshot: some LogSnapshot) throws -> Compiled? {
        let version = try Self.version(namespace, snapshot)
        return entries.withLock { $0[namespace] }.flatMap { $0.version == version ? $0 : nil }
    }

    /// The compiled areas as of the writer's transaction.
    func compiled(_ namespace: String, _ scope: WriteScope) throws -> Compiled {
        let version = try Self.version(namespace, scope)
        if let hit = entries.withLock({ $0[namespace] }), hit.version == version { return hit }
        let areas = try scope.areas.areas(namespace: namespace)
        var index = CircleIndex<String>()
        for area in areas {
            if let circle = area.circle { index.insert(circle, id: area.id) }
        }
        let geofences = Dictionary(uniqueKeysWithValues: areas.filter { $0.kind == .geofence }.map { ($0.id, $0) })
        let geotriggers = try scope.geotriggers.geotriggers(namespace: namespace)
        let compiled = Compiled(
            version: version, areas: Dictionary(uniqueKeysWithValues: areas.map { ($0.identity, $0) }),
            detector: PresenceDetector(fences: index), beaconRegions: areas.filter { $0.kind == .beacon },
            geotriggers: geotriggers.map { Self.compile($0, areas: geofences) })
        entries.withLock { $0[namespace] = compiled }
        return compiled
    }

    /// `areas`: the geofences by id (a geotrigger names geofences by id).
    static func compile(_ geotrigger: Geotrigger, areas: [String: Area]) -> CompiledGeotrigger {
        var index = CircleIndex<String>()
        var attributes: [String: ArcadeDictionary] = [:]
        var polygons: [(id: String, polygon: Polygon)] = []
        let buffer = geotrigger.bufferDistance
        if geotrigger.fences.isEmpty {
            let chosen = geotrigger.areas.isEmpty ? Array(areas.values) : geotrigger.areas.compactMap { areas[$0] }
            for area in chosen {
                guard let circle = area.circle,
                    let fence = try? Circle(center: circle.center, radius: circle.radius + buffer)
                else { continue }
                index.insert(fence, id: area.id)
                attributes[area.id] = ArcadeDictionary([
                    ("id", .text(area.id)), ("name", .text(area.name)), ("address", .text(area.address)),
                    ("group_id", .text(area.groupId ?? "")),
                ])
            }
        } else {
            for fence in geotrigger.fences {
                if let polygon = fence.polygon {
                    polygons.append((fence.id, polygon))
                    attributes[fence.id] = ArcadeDictionary(
                        fence.attributes.sorted { $0.key < $1.key }.map { ($0.key, ArcadeJSON.value($0.value)) })
                    continue
                }
                guard let centre = try? Coordinate(latitude: fence.latitude, longitude: fence.longitude),
                    let circle = try? Circle(center: centre, radius: fence.radius + buffer)
                else { continue }
                index.insert(circle, id: fence.id)
                attributes[fence.id] = ArcadeDictionary(
                    fence.attributes.sorted { $0.key < $1.key }.map { ($0.key, ArcadeJSON.value($0.value)) })
            }
        }
        return CompiledGeotrigger(
            geotrigger: geotrigger, expression: try? MessageExpression(geotrigger.messageExpression),
            detector: PresenceDetector(fences: index), polygons: polygons, attributes: attributes)
    }
}

extension AreaCache.Compiled {
    /// The area a recorded kind and id name; an empty kind (schema 1) is the one area of that id.
    func area(kind: String, id: String) -> Area? {
        if let kind = Area.Kind(rawValue: kind) { return areas[Area.Identity(kind: kind, id: id)] }
        return Area.Kind.allCases.lazy.compactMap { areas[Area.Identity(kind: $0, id: id)] }.first
    }
}
