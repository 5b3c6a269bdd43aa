/// Which way a device went through an area's edge, named as the seed's rule triggers are
/// (`"on_entry"`, `"on_exit"`).
public enum FenceTrigger: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case entry = "on_entry"
    case exit = "on_exit"

    public var description: String { rawValue }
}

/// One edge crossing found for a fix.
public struct FenceCrossing<ID: Hashable & Sendable>: Sendable, Hashable {
    public var id: ID
    public var trigger: FenceTrigger

    public init(id: ID, trigger: FenceTrigger) {
        self.id = id
        self.trigger = trigger
    }
}

/// A location report: where, and how sure the device is of it.
public struct Fix: Sendable, Hashable {
    public var coordinate: Coordinate
    /// Radius of the 68 % confidence circle in metres, as devices report it; nil when unknown.
    public var accuracy: Double?

    public init(_ coordinate: Coordinate, accuracy: Double? = nil) {
        self.coordinate = coordinate
        self.accuracy = accuracy
    }
}
