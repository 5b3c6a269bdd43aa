/// What the hand-over says about the beacon nearest to the device, in the seed's three cases
/// (004, "clearly closer to beacon 1 / to beacon 2 / undetermined: do nothing").
public enum NearestBeacon<ID: Hashable & Comparable & Sendable>: Sendable, Hashable {
    /// This beacon serves: it is clearly the closest, or no other is clearly closer than it.
    case beacon(ID)
    /// Beacons are in range but none is clearly closer than the others: do nothing.
    case undetermined
    /// No beacon is in range.
    case noneInRange

    /// The serving beacon, nil when undetermined or none is in range.
    public var id: ID? {
        if case .beacon(let id) = self { return id }
        return nil
    }
}

/// The serving beacon changed: the moment to trigger the new one's actions.
public struct ServingBeaconChange<ID: Hashable & Comparable & Sendable>: Sendable, Hashable {
    /// The beacon that served before; nil when none did.
    public var from: ID?
    /// The beacon that serves now; nil when the serving beacon went silent and no other is clearly closest.
    public var to: ID?
}
