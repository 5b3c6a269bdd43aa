import Foundation

/// What a message expression can see of one notification: its profile variables and the clock.
public struct GeotriggerContext: Sendable, Hashable {
    /// `$fencenotificationtype`.
    public var notificationType: FenceNotificationType
    /// `$fencefeature`: the attributes of the fence that was entered or exited.
    public var fenceFeature: ArcadeDictionary
    /// `$feedfeature`: the attributes of the feed's feature (the device's location update).
    public var feedFeature: ArcadeDictionary
    /// What `Now()` returns.
    public var now: Date

    /// Creates a context.
    public init(
        notificationType: FenceNotificationType, fenceFeature: ArcadeDictionary = [:],
        feedFeature: ArcadeDictionary = [:], now: Date
    ) {
        self.notificationType = notificationType
        self.fenceFeature = fenceFeature
        self.feedFeature = feedFeature
        self.now = now
    }
}

/// Whether the fence was entered or exited, as `$fencenotificationtype` spells it.
public enum FenceNotificationType: String, Sendable, Hashable, CaseIterable {
    /// The feed moved into the fence.
    case entered
    /// The feed moved out of the fence.
    case exited
}
