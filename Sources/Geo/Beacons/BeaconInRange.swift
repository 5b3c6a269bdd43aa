/// A beacon in the vector of beacons in range (seed 004: "the application must keep a vector of
/// Ubudu beacons in range"), with what the hand-over decides on.
public struct BeaconInRange<ID: Hashable & Comparable & Sendable>: Sendable, Hashable {
    /// The beacon.
    public var id: ID
    /// The median of its recent readings in dBm: what the hand-over compares.
    public var smoothedRSSI: Double
    /// Its latest reading in dBm.
    public var lastRSSI: Int
    /// When it was last heard, in the sightings' seconds.
    public var lastSeen: Double
    /// How many readings the median is taken over (at most the hand-over's `sampleCount`).
    public var samples: Int
    /// Whether it has enough readings to take part in the decision (`minimumSightings`).
    public var isSettled: Bool
}
