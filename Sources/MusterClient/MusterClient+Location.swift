import Foundation
import MusterWire

extension MusterClient {
    /// Publishes where the device is (`POST /api/v1/locations`): the server works out the areas entered or left
    /// and what their rules did. Answer it when a push asks (``processPushNotification(_:locationProvider:)``)
    /// and whenever the app's location updates.
    ///
    /// A server without the route answers `not_found`, thrown like any other error.
    ///
    /// - Parameters:
    ///   - deviceId: the device; it must be one of the user's.
    ///   - latitude: WGS 84 degrees.
    ///   - longitude: WGS 84 degrees.
    ///   - accuracy: the horizontal accuracy in metres, when known.
    ///   - at: when the device was there; nil for now.
    public func publishCurrentLocation(
        deviceId: String, latitude: Double, longitude: Double, accuracy: Double? = nil, at: Date? = nil
    ) async throws(MusterClientError) -> LocationAnswer {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else {
            throw MusterClientError(
                code: .invalidArgument, message: "(\(latitude), \(longitude)) is not a latitude and longitude")
        }
        let body = LocationBody(
            deviceId: deviceId, lat: latitude, lng: longitude, accuracy: accuracy.flatMap { $0.isFinite ? $0 : nil },
            at: at)
        return try await report(body, to: ["locations"])
    }
}

extension MusterClient {
    /// Reports an iBeacon sighting (`POST /api/v1/beacons/sightings`): the regions entered or left
    /// and what their rules did.
    ///
    /// - Parameters:
    ///   - proximityUUID: the beacon's proximity UUID; `major`, `minor` its numbers (0…65535).
    ///   - rssi: the received signal strength in dBm; `txPower` the beacon's measured power at 1 m.
    ///   - proximity: how close the device judged the beacon (`immediate`, `near`, `far`, `unknown`: CLBeacon's
    ///     `proximity` by name); nil to have it estimated from `rssi` and `txPower`.
    public func reportBeaconSighting(
        deviceId: String, proximityUUID: String, major: Int, minor: Int, rssi: Int, txPower: Int? = nil,
        proximity: String? = nil, at: Date? = nil
    ) async throws(MusterClientError) -> LocationAnswer {
        let body = SightingBody(
            deviceId: deviceId, uuid: proximityUUID, major: major, minor: minor, rssi: rssi, txPower: txPower,
            proximity: proximity, at: at)
        return try await report(body, to: ["beacons", "sightings"])
    }

    /// Reports an entry or exit the device detected itself (`POST /api/v1/transitions`), e.g. from the
    /// OS's region monitoring; `trigger` is `on_entry` or `on_exit`, `kind` (`geofence` or `beacon`) is needed
    /// only when a geofence and a beacon region share the id.
    public func reportTransition(
        deviceId: String, area: String, kind: String? = nil, trigger: String, latitude: Double? = nil,
        longitude: Double? = nil, at: Date? = nil
    ) async throws(MusterClientError) -> LocationAnswer {
        let body = TransitionBody(
            deviceId: deviceId, area: area, kind: kind, trigger: trigger, lat: latitude, lng: longitude, at: at)
        return try await report(body, to: ["transitions"])
    }

    /// Reports a raw iBeacon advertisement the device received (`POST /api/v1/beacons/adverts`): the server reads
    /// the UUID, major, minor and measured power from `advert` (the 30 bytes as hex) and answers as for a sighting.
    /// A malformed advert is refused as `invalid_argument`, naming the offset and what was expected there.
    public func reportBeaconAdvert(
        deviceId: String, advert: String, rssi: Int, at: Date? = nil
    ) async throws(MusterClientError) -> LocationAnswer {
        try await report(
            AdvertBody(deviceId: deviceId, advert: advert, rssi: rssi, at: at), to: ["beacons", "adverts"])
    }

    /// The device's position and the areas it monitors and is active in (`GET /api/v1/devices/{id}/areas`);
    /// `user` (administrators) reads another user's device.
    public func deviceAreas(deviceId: String, user: String? = nil) async throws(MusterClientError) -> DeviceAreas {
        var request = APIRequest("GET", ["devices", deviceId, "areas"])
        request.query = [user.map { URLQueryItem(name: "user", value: $0) }].compactMap { $0 }
        return try decode(DeviceAreas.self, from: try await perform(request), of: request)
    }

    /// Posts a device's report to `path` and reads what the rules made of it.
    private func report(_ body: some Encodable, to path: [String]) async throws(MusterClientError) -> LocationAnswer {
        let request = try APIRequest("POST", path, json: body)
        return try decode(LocationAnswer.self, from: try await perform(request), of: request)
    }
}
