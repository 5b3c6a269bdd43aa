import Foundation

/// Where a ``LocationPublisher`` gets the device's position: Core Location's updates in an app
/// (`CLLocationUpdate.liveUpdates()`, each fix yielded), a GPS daemon or a configured position on a Linux agent.
public protocol LocationSource: Sendable {
    /// The device's fixes as they come. The publisher stops when the stream ends, and ends the stream (its
    /// `onTermination` runs) when it is stopped, so the source can stop its own updates then.
    func fixes() -> AsyncStream<LocationFix>
}
