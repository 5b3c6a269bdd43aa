import Foundation

/// How close a beacon is, in the categories of seed 004 (lines 121, 702, 950: `"immediate"`, `"near"`,
/// `"far"`; line 899: the codes `"0"`, `"1"`, `"2"`), plus `unknown` when no estimate is possible.
///
/// The seed gives no thresholds, so the category comes from the common log-distance path-loss
/// estimate d = 10^((measuredPower − rssi) / (10 · n)) metres with n = 2 (free space), and the
/// iOS-like bounds: immediate below 0.5 m, near below 3 m, far beyond. An RSSI of 0 or above
/// (iOS reports 0 when it has no reading), or a measured power of 0 or above, is `unknown`.
public enum BeaconProximity: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case immediate, near, far, unknown

    /// The path-loss exponent n of the estimate (2 = free space).
    public static let pathLossExponent = 2.0
    /// Distances below this are `immediate`, in metres.
    public static let immediateBelow = 0.5
    /// Distances below this (and not immediate) are `near`, in metres.
    public static let nearBelow = 3.0

    /// The category for a sighting at `rssi` dBm of a beacon calibrated to `measuredPower` dBm at 1 m.
    public init(rssi: Int, measuredPower: Int) {
        guard let metres = Self.estimatedDistance(rssi: rssi, measuredPower: measuredPower) else {
            self = .unknown
            return
        }
        self = metres < Self.immediateBelow ? .immediate : metres < Self.nearBelow ? .near : .far
    }

    /// The seed's web-API code `"0"`, `"1"`, `"2"` or name `"immediate"`, `"near"`, `"far"`;
    /// nil for anything else (empty means "no maximum" to the caller).
    public init?(ubudu text: String) {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "0", "immediate": self = .immediate
        case "1", "near": self = .near
        case "2", "far": self = .far
        default: return nil
        }
    }

    /// The estimated distance in metres, or nil when the readings allow no estimate.
    public static func estimatedDistance(rssi: Int, measuredPower: Int) -> Double? {
        guard rssi < 0, measuredPower < 0 else { return nil }
        return pow(10, Double(measuredPower - rssi) / (10 * pathLossExponent))
    }

    /// Whether this proximity satisfies a rule's `maximum_proximity` (this or closer); `unknown`
    /// never does.
    public func isWithin(_ maximum: BeaconProximity) -> Bool {
        self != .unknown && self <= maximum
    }

    /// Closer first; `unknown` last.
    public static func < (lhs: BeaconProximity, rhs: BeaconProximity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
