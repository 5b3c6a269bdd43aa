import Foundation

/// How the client answers a location request by itself: which device it is and where it is now.
///
/// On iOS, `currentLocation` would ask Core Location for one fix (`CLLocationUpdate.liveUpdates()`).
public struct LocationProvider: Sendable {
    /// The device the location is published for; one of the user's registered devices.
    public var deviceId: String
    /// The device's current position; throws when it cannot be had (no permission, no fix).
    public var currentLocation: @Sendable () async throws -> LocationFix

    /// A provider for `deviceId` that finds its position with `currentLocation`.
    public init(deviceId: String, currentLocation: @escaping @Sendable () async throws -> LocationFix) {
        self.deviceId = deviceId
        self.currentLocation = currentLocation
    }
}

/// One position fix of the device.
public struct LocationFix: Sendable, Hashable {
    /// Latitude in WGS 84 degrees.
    public var latitude: Double
    /// Longitude in WGS 84 degrees.
    public var longitude: Double
    /// Horizontal accuracy in metres, when known.
    public var accuracy: Double?
    /// When the fix was taken; nil for now.
    public var timestamp: Date?

    /// Creates a fix.
    public init(latitude: Double, longitude: Double, accuracy: Double? = nil, timestamp: Date? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.timestamp = timestamp
    }
}
