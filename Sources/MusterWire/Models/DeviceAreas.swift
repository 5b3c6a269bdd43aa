/// What the seed's area manager answers about one device (seed 004): its current position, the areas it
/// monitors — near enough, within their start and end, open now — and the areas it is active in — inside, within
/// their start and end, open now. `GET /api/v1/devices/{id}/areas`, `muster areas monitored`.
public struct DeviceAreas: Sendable, Hashable, Codable {
    /// The device's owner.
    public var user: String
    /// The device.
    public var deviceId: String
    /// The device's last reported fix; nil before its first.
    public var position: Position?
    /// How near a geofence's edge the device must be for it to be monitored, in metres.
    public var monitoringDistance: Double
    /// The areas monitored now, geofences nearest first, then beacon regions by id.
    public var monitored: [AreaState]
    /// The monitored areas the device is inside.
    public var active: [AreaState]

    /// Creates an answer from its parts.
    public init(
        user: String, deviceId: String, position: Position?, monitoringDistance: Double, monitored: [AreaState],
        active: [AreaState]
    ) {
        self.user = user
        self.deviceId = deviceId
        self.position = position
        self.monitoringDistance = monitoringDistance
        self.monitored = monitored
        self.active = active
    }

    /// A WGS 84 position.
    public struct Position: Sendable, Hashable, Codable {
        /// Latitude in degrees.
        public var lat: Double
        /// Longitude in degrees.
        public var lng: Double

        /// Creates a position.
        public init(lat: Double, lng: Double) {
            self.lat = lat
            self.lng = lng
        }
    }

    /// One area as seen from the device.
    public struct AreaState: Sendable, Hashable, Codable {
        /// `geofence` or `beacon`: ids are unique only within a kind.
        public var kind: String
        /// The area's id.
        public var id: String
        /// The area's name.
        public var name: String
        /// Metres from the device to the geofence's edge, 0 inside; nil for beacon regions, which have no place.
        public var distance: Double?
        /// Whether the device is inside the area.
        public var inside: Bool

        /// Creates an area state.
        public init(kind: String, id: String, name: String, distance: Double?, inside: Bool) {
            self.kind = kind
            self.id = id
            self.name = name
            self.distance = distance
            self.inside = inside
        }
    }
}
