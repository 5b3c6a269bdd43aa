import Forms
import Foundation
import Geo
import MusterWire

/// A fence geotrigger (seed 003): a set of fences, a spatial rule, and the message expression that
/// says what to tell the person whose device met it.
public struct Geotrigger: Sendable, Hashable, Codable {
    /// When it fires.
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        case enter, exit, enterOrExit

        func fires(on type: FenceNotificationType) -> Bool {
            switch self {
            case .enter: type == .entered
            case .exit: type == .exited
            case .enterOrExit: true
            }
        }
    }

    /// One fence: a circle (a point and a radius) or a polygon, with the attributes
    /// `$fencefeature` shows.
    public struct Fence: Sendable, Hashable, Codable {
        public var id: String
        public var latitude: Double
        public var longitude: Double
        /// Metres, before the buffer distance; 0 for a polygon.
        public var radius: Double
        /// A polygon's ring as GeoJSON positions `[longitude, latitude]`; nil for a circle.
        public var ring: [[Double]]? = nil
        public var attributes: [String: JSONValue]

        /// The polygon of a polygon fence.
        public var polygon: Polygon? {
            guard let ring else { return nil }
            return try? Polygon(ring.compactMap { try? Coordinate(latitude: $0[1], longitude: $0[0]) })
        }
    }

    public var id: String
    public var name = ""
    /// Geofence areas used as fences; empty with no `fences` means every geofence of the namespace.
    public var areas: [String] = []
    /// Fences given as GeoJSON points with a radius.
    public var fences: [Fence] = []
    public var rule = Rule.enterOrExit
    /// Metres added around every fence.
    public var bufferDistance = 0.0
    /// The Arcade message expression (the documented subset of `Geo.MessageExpression`).
    public var messageExpression: String
    /// Every action the author intends notifications to request.
    public var requestedActions: [String] = []
}
