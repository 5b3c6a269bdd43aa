import EventLog

extension Area {
    /// The two subclasses of areas in seed 004; ids are unique only within one.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        case geofence, beacon

        /// `geofence` or `beacon region`, as messages name it.
        public var description: String { self == .geofence ? "geofence" : "beacon region" }

        /// Reads `geofence` or `beacon` (plurals and `beacon-region` too), as options and query parameters give it.
        public init?(argument text: String) {
            switch text.lowercased() {
            case "geofence", "geofences": self = .geofence
            case "beacon", "beacons", "beacon-region", "beacon_region", "beaconregion": self = .beacon
            default: return nil
            }
        }
    }

    /// What names an area: its kind and its id.
    public struct Identity: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
        public var kind: Kind
        public var id: String

        public init(kind: Kind, id: String) {
            self.kind = kind
            self.id = id
        }

        /// e.g. `geofence "52"`.
        public var description: String { "\(kind) \(String(reflecting: id))" }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.kind.rawValue, lhs.id) < (rhs.kind.rawValue, rhs.id)
        }

        /// The two key components `kind 0 id 0` projections store it as.
        /// Not inlined: Swift 6.3.1's optimizer (CopyPropagation, "Found ownership error?!") crashed on functions
        /// it was inlined into in a release build.
        @inline(never)
        var key: [UInt8] { Key.joined(kind.rawValue, id) }
    }
}
