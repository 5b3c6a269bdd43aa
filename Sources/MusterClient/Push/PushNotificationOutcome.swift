import Foundation
import MusterWire

/// What ``MusterClient/processPushNotification(_:locationProvider:)`` did with a push.
public enum PushNotificationOutcome: Sendable, Hashable {
    /// The push is not Muster's: the app handles it.
    case notMuster
    /// A message arrived; here it is, ready to show: as the push carried it, or fetched when it did not.
    case message(Message)
    /// An operator's test push (`muster push-sources test`) arrived: handled, nothing was fetched; show its title
    /// and body if the app likes.
    case test(title: String?, body: String?)
    /// An area notification waits for the app, here as ``MusterClient/notices(deviceId:)`` lists it: have it
    /// performed (``MusterClient/performNotice(_:)``) or dismiss it.
    case areaNotice(AreaNotification)
    /// The push named an area notification that is no longer waiting (performed, dismissed, or not this device's).
    case areaNoticeSettled(UUID)
    /// The message with this id was withdrawn by its sender: take it out of what the app shows (its alert was
    /// replaced by the withdrawal's already).
    case withdrawn(UUID)
    /// The server asks for the device's location, and no ``LocationProvider`` was given: the app should call
    /// ``MusterClient/publishCurrentLocation(deviceId:latitude:longitude:accuracy:at:)``.
    case locationRequested
    /// The server asked for the device's location and it was published; what it caused.
    case locationPublished(LocationAnswer)

    /// Whether Muster handled the push (the seed's `notificationHandled`).
    public var handled: Bool { self != .notMuster }
}
