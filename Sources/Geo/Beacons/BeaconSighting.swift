/// One reading of one beacon: which beacon, how strong, and when — what a scan or an iOS ranging
/// callback reports for each beacon it heard.
public struct BeaconSighting<ID: Hashable & Comparable & Sendable>: Sendable, Hashable {
    /// The beacon: its advertisement, its (major, minor), or whatever the caller keys beacons by.
    public var id: ID
    /// The received signal strength in dBm; 0 or above means "no reading" (iOS reports 0) and is ignored.
    public var rssi: Int
    /// When it was heard, in seconds on a clock the caller chooses (one clock for all sightings).
    public var time: Double

    /// Creates a sighting of `id` at `rssi` dBm at `time` seconds.
    public init(_ id: ID, rssi: Int, at time: Double) {
        self.id = id
        self.rssi = rssi
        self.time = time
    }
}
