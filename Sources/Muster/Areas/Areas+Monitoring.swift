import EventLog
import Foundation
import Geo
import MusterWire

extension Areas {
    /// How near a geofence's edge a device must be for the area to be monitored, in metres.
    ///
    /// Seed 004 says only "close enough": its web API asks for the areas within a radius of the device, and its
    /// examples ask for 10 km, which is taken here. Beacon regions have no place, so distance never rules them out.
    public static let monitoringDistance: Double = 10_000

    /// The device's position and the areas it monitors and is active in at `now` (seed 004's "monitored" and
    /// "active"): monitored when near enough (`monitoringDistance`), within start and end, and open; active
    /// when monitored and inside.
    public func monitoring(
        user: String, deviceId: String, namespace: String = Names.defaultNamespace, now: Date = Date()
    ) throws -> DeviceAreas {
        try Names.validate(namespace, as: "namespace")
        try Names.validate(deviceId, as: "deviceId", maximumBytes: 256)
        return try log.read { reader in
            let rules = try reader.rules
            let position = try rules.fix(user: user, deviceId: deviceId, namespace: namespace)
            let inside = try rules.inside(user: user, deviceId: deviceId, namespace: namespace)
            var monitored: [DeviceAreas.AreaState] = []
            for area in try reader.areas.areas(namespace: namespace) where area.isOpen(at: now) {
                var distance: Double?
                if let circle = area.circle {
                    guard let position else { continue }
                    distance = max(position.distance(to: circle.center) - circle.radius, 0)
                    guard distance! <= Self.monitoringDistance else { continue }
                }
                monitored.append(
                    DeviceAreas.AreaState(
                        kind: area.kind.rawValue, id: area.id, name: area.name, distance: distance,
                        inside: inside.contains(area.identity)))
            }
            monitored.sort { ($0.distance ?? .infinity, $0.kind, $0.id) < ($1.distance ?? .infinity, $1.kind, $1.id) }
            return DeviceAreas(
                user: user, deviceId: deviceId,
                position: position.map { DeviceAreas.Position(lat: $0.latitude, lng: $0.longitude) },
                monitoringDistance: Self.monitoringDistance, monitored: monitored, active: monitored.filter(\.inside))
        }
    }
}

extension Area {
    /// Whether the area is within its start and end and its opening hours at `instant`.
    func isOpen(at instant: Date) -> Bool {
        if let start, instant < start { return false }
        if let end, instant > end { return false }
        guard !schedule.isAlwaysOpen else { return true }
        let zone = (try? TimeZone(areaZone: timeZone)) ?? TimeZone(identifier: "UTC")!
        return schedule.decision(at: instant, in: zone).isOpen
    }
}
