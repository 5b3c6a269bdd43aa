import Geo

extension BeaconProximity {
    /// How close a device judged a beacon, as the API and the CLI take it: `immediate`, `near`, `far` or `unknown`
    /// (iOS ranging's CLProximity by name). The error names `proximity`.
    public init(reported text: String) throws(MusterError) {
        guard let proximity = BeaconProximity(rawValue: text.lowercased()) else {
            throw MusterError(
                .invalidArgument,
                "proximity: expected immediate, near, far or unknown (the device's own judgement), "
                    + "not \(String(reflecting: text))",
                field: "proximity")
        }
        self = proximity
    }
}
