import MusterWire

/// What ``MusterClient/processPushNotification(_:locationProvider:)`` did with a push.
public enum PushNotificationOutcome: Sendable, Hashable {
    /// The push is not Muster's: the app handles it.
    case notMuster
    /// A message arrived; here it is, fetched, ready to show.
    case message(Message)
    /// The server asks for the device's location, and no ``LocationProvider`` was given: the app should call
    /// ``MusterClient/publishCurrentLocation(deviceId:latitude:longitude:accuracy:at:)``.
    case locationRequested
    /// The server asked for the device's location and it was published; what it caused.
    case locationPublished(LocationAnswer)

    /// Whether Muster handled the push (the seed's `notificationHandled`).
    public var handled: Bool { self != .notMuster }
}
