import Foundation

/// Reads inside one transaction: a `LogReader`'s snapshot or the writer's `WriteScope`. A query
/// written against it serves both — a read that prepares, and the writer that decides — as GRDB's
/// `read {}` and `write {}` hand the same `Database`.
public protocol LogSnapshot {
    /// Position of the last event; 0 when empty.
    var head: UInt64 { get }
    /// The event at `position`, upcast to its current schema.
    func event(at position: UInt64) throws -> RecordedEvent?
    /// The id, type and time of the event at `position`, without reading its body (unchecked: see `EventHeader`).
    func eventHeader(at position: UInt64) throws -> EventHeader?
    /// Where the event of this id is; nil when there is none.
    func position(ofEventId id: UUID) throws -> UInt64?
    /// Version of the stream's last event; 0 when it does not exist.
    func streamVersion(namespace: String, stream: String) throws -> UInt64
    /// The active tables of the projection named `name`; projections build their queries on them.
    func projection(_ name: String) throws -> ProjectionState
}

extension LogSnapshot {
    /// The tables of `projection` in this snapshot, with the queries the projection declares on them.
    public func view<P: Projection>(_ projection: P) throws -> ProjectionView<P> {
        ProjectionView(state: try self.projection(projection.name))
    }
}

/// One projection's tables in one snapshot. A projection declares its queries in an extension
/// (`extension ProjectionView<InboxProjection>`), next to the key layout only it knows.
public struct ProjectionView<P: Projection> {
    /// The tables, for the projection's own queries.
    public let state: ProjectionState

    public init(state: ProjectionState) { self.state = state }
}

extension LogReader: LogSnapshot {}
extension WriteScope: LogSnapshot {}
