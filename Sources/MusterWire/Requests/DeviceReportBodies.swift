import Foundation

/// The body of `POST /locations`: where a device is.
public struct LocationBody: Sendable, Hashable, Codable {
    /// The reporting device; it must be one of the user's.
    public var deviceId: String
    /// WGS 84 latitude in degrees.
    public var lat: Double
    /// WGS 84 longitude in degrees.
    public var lng: Double
    /// The horizontal accuracy in metres, when known.
    public var accuracy: Double?
    /// When the device was there (ISO 8601); nil for now.
    public var at: String?

    /// Creates a location report; `at` is written as the wire writes dates.
    public init(deviceId: String, lat: Double, lng: Double, accuracy: Double? = nil, at: Date? = nil) {
        self.deviceId = deviceId
        self.lat = lat
        self.lng = lng
        self.accuracy = accuracy
        self.at = at.map(MusterJSON.formatDate)
    }
}

/// The body of `POST /transitions`: an entry or exit the device detected itself.
public struct TransitionBody: Sendable, Hashable, Codable {
    /// The reporting device; it must be one of the user's.
    public var deviceId: String
    /// The area entered or left.
    public var area: String
    /// `geofence` or `beacon`; needed only when the id names both.
    public var kind: String?
    /// `on_entry` or `on_exit`.
    public var trigger: String
    /// Where the device was, for URL templates; with `lng`.
    public var lat: Double?
    /// Where the device was, for URL templates; with `lat`.
    public var lng: Double?
    /// When it happened (ISO 8601); nil for now.
    public var at: String?

    /// Creates a transition report; `at` is written as the wire writes dates.
    public init(
        deviceId: String, area: String, kind: String? = nil, trigger: String, lat: Double? = nil, lng: Double? = nil,
        at: Date? = nil
    ) {
        self.deviceId = deviceId
        self.area = area
        self.kind = kind
        self.trigger = trigger
        self.lat = lat
        self.lng = lng
        self.at = at.map(MusterJSON.formatDate)
    }
}

/// The body of `POST /beacons/sightings`: an iBeacon the device received.
public struct SightingBody: Sendable, Hashable, Codable {
    /// The reporting device; it must be one of the user's.
    public var deviceId: String
    /// The beacon's proximity UUID.
    public var uuid: String
    /// The beacon's major number (0…65535).
    public var major: Int
    /// The beacon's minor number (0…65535).
    public var minor: Int
    /// The received signal strength in dBm.
    public var rssi: Int
    /// The beacon's measured power at 1 m in dBm; nil for the usual -59.
    public var txPower: Int?
    /// How close the device itself judged the beacon (iOS ranging's CLProximity): `immediate`, `near`, `far` or
    /// `unknown`; nil: estimated from `rssi` and `txPower`. A rule's `maximum_proximity` is checked against it.
    public var proximity: String?
    /// When it was received (ISO 8601); nil for now.
    public var at: String?

    /// Creates a sighting report; `at` is written as the wire writes dates.
    public init(
        deviceId: String, uuid: String, major: Int, minor: Int, rssi: Int, txPower: Int? = nil,
        proximity: String? = nil, at: Date? = nil
    ) {
        self.deviceId = deviceId
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.rssi = rssi
        self.txPower = txPower
        self.proximity = proximity
        self.at = at.map(MusterJSON.formatDate)
    }
}

/// The body of `POST /beacons/adverts`: the raw iBeacon advertisement the device received.
public struct AdvertBody: Sendable, Hashable, Codable {
    /// The reporting device; it must be one of the user's.
    public var deviceId: String
    /// The 30 bytes of advertising data as hex, e.g. `02 01 06 1A FF 4C 00 02 15` then the UUID, major, minor
    /// and measured power; spaces and colons between bytes are ignored.
    public var advert: String
    /// The received signal strength in dBm.
    public var rssi: Int
    /// When it was received (ISO 8601); nil for now.
    public var at: String?

    /// Creates an advert report; `at` is written as the wire writes dates.
    public init(deviceId: String, advert: String, rssi: Int, at: Date? = nil) {
        self.deviceId = deviceId
        self.advert = advert
        self.rssi = rssi
        self.at = at.map(MusterJSON.formatDate)
    }
}
