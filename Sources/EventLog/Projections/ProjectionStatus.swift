/// Where a projection stands, as `muster status` shows it.
public struct ProjectionStatus: Sendable, Hashable, Codable {
    public var name: String
    public var mode: ProjectionMode
    /// The version this release's code has.
    public var version: UInt32
    /// The version the active tables were built with; nil when never built.
    public var storedVersion: UInt32?
    /// The active generation of tables; nil when never built.
    public var generation: UInt64?
    /// Last applied position (the log head for an inline projection that is current).
    public var checkpoint: UInt64
    /// Last position applied by a rebuild in progress, if one is.
    public var rebuildCheckpoint: UInt64?
    /// True when the active tables answer queries with this release's code and are caught up to `head`.
    public var isCurrent: Bool
}
