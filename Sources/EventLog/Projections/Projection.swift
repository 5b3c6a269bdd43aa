/// A queryable state derived from the log, rebuilt from it at will.
///
/// An inline projection is applied in the same transaction as the append, so decisions made on the
/// writer can read it and never see it behind. An async projection tails the log and commits its
/// checkpoint in the same transaction as its writes, so each event is applied exactly once.
public protocol Projection: Sendable {
    /// Unique, stable name; part of table names, so short and without dots.
    var name: String { get }
    /// Bump when `apply` changes meaning: the stored state is then rebuilt (blue/green).
    var version: UInt32 { get }
    var mode: ProjectionMode { get }
    /// Names of the tables the projection owns.
    var tables: [String] { get }
    /// The event types `apply` folds; the runner skips every other event before it reaches `apply`.
    /// Nil: every event (indexes and statistics of the whole log).
    var eventTypes: Set<String>? { get }
    /// Folds one event into the state. `state.isReplaying` is true during rebuilds: no side effects then.
    func apply(_ event: RecordedEvent, to state: ProjectionState) throws
}

/// A projection with its `eventTypes` read once, for a runner that hands it many events: a projection may
/// build that set on every call (a computed property with a literal), which per event and projection cost
/// the writer more than the folds themselves.
struct EventFilteredProjection {
    let projection: any Projection
    let eventTypes: Set<String>?

    init(_ projection: any Projection) {
        self.projection = projection
        eventTypes = projection.eventTypes
    }

    /// Folds `event` when it is of a type the projection handles.
    func applyIfHandled(_ event: RecordedEvent, to state: ProjectionState) throws {
        if eventTypes?.contains(event.type) ?? true { try projection.apply(event, to: state) }
    }
}

/// When a projection is applied.
public enum ProjectionMode: String, Sendable, Codable {
    /// In the append transaction.
    case inline
    /// By a tailer after the commit.
    case async
}
