import Foundation

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
    ) async throws(MusterClientError) -> LocationReport {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else {
            throw MusterClientError(
                code: .invalidArgument, message: "(\(latitude), \(longitude)) is not a latitude and longitude")
        }
        let body = LocationBody(
            deviceId: deviceId, lat: latitude, lng: longitude, accuracy: accuracy.flatMap { $0.isFinite ? $0 : nil },
            at: at)
        let request = try APIRequest("POST", ["locations"], json: body)
        return try decode(LocationReport.self, from: try await perform(request), of: request)
    }
}

private struct LocationBody: Encodable {
    var deviceId: String
    var lat: Double
    var lng: Double
    var accuracy: Double?
    var at: Date?
}
