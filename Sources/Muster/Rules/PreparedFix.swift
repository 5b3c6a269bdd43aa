import EventLog
import Geo

/// The geofences a location fix crosses, worked out on a snapshot before the fix takes the writer.
///
/// The presence detector and the reads of where the device was are a large part of a fix's work, and the writer
/// is one thread for every device (bench http-locations). The writer takes the crossings as they are when neither
/// the namespace's areas nor the device's stream has a newer version than the snapshot had — every change to where
/// a device is (a fix, a transition, a sighting) is an event of the device's stream — and works them out again
/// otherwise.
struct PreparedFix: Sendable {
    /// The compiled areas' version the crossings were worked out with.
    var areasVersion: UInt64
    /// The device stream's version at the snapshot.
    var deviceVersion: UInt64
    /// The device's fix before this one.
    var previous: Coordinate?
    var crossings: [FenceCrossing<String>]

    /// Nil when the snapshot's areas are not compiled yet (the writer compiles them once) or the fix is too
    /// inaccurate to decide anything.
    init?(
        _ snapshot: some LogSnapshot, cache: AreaCache, namespace: String, user: String, deviceId: String, fix: Fix
    ) throws {
        guard let areas = try cache.cached(namespace, snapshot), areas.detector.isUsable(fix) else { return nil }
        let rules = try snapshot.view(RulesProjection())
        areasVersion = areas.version
        deviceVersion = try snapshot.streamVersion(namespace: namespace, stream: Streams.device(deviceId))
        previous = try rules.fix(user: user, deviceId: deviceId, namespace: namespace)
        crossings = areas.detector.crossings(
            inside: try rules.geofencesInside(user: user, deviceId: deviceId, namespace: namespace),
            previous: previous, fix: fix)
    }

    /// Whether the writer's run sees what this was worked out on; asked before the run appends anything.
    func isCurrent(in run: RuleRun, deviceId: String) throws -> Bool {
        try areasVersion == run.areas.version
            && deviceVersion
                == run.scope.streamVersion(namespace: run.namespace, stream: Streams.device(deviceId))
    }
}
