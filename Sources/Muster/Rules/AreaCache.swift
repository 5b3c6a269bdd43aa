import EventLog
import Geo
import Synchronization

/// The areas of each namespace compiled for lookups — a spatial index over the geofences and the
/// list of beacon regions — rebuilt when the namespace's `areas` stream has a new version.
final class AreaCache: Sendable {
    struct Compiled: Sendable {
        var version: UInt64
        var areas: [String: Area]
        var detector: PresenceDetector<String>
        var beaconRegions: [Area]
    }

    private let entries = Mutex<[String: Compiled]>([:])

    /// The compiled areas as of the writer's transaction.
    func compiled(_ namespace: String, _ scope: WriteScope) throws -> Compiled {
        let version = try scope.streamVersion(namespace: namespace, stream: "areas")
        if let hit = entries.withLock({ $0[namespace] }), hit.version == version { return hit }
        let areas = try AreasProjection.areas(namespace, scope.projection(AreasProjection.name))
        var index = CircleIndex<String>()
        for area in areas {
            if let circle = area.circle { index.insert(circle, id: area.id) }
        }
        let compiled = Compiled(
            version: version, areas: Dictionary(uniqueKeysWithValues: areas.map { ($0.id, $0) }),
            detector: PresenceDetector(fences: index),
            beaconRegions: areas.filter { if case .beacon = $0.region { true } else { false } })
        entries.withLock { $0[namespace] = compiled }
        return compiled
    }
}
