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
    /// Those of `tables` that hold value sets: under each key an ascending set of 8-byte values (positions), written
    /// with `ProjectionState.appendValues`. Default: none.
    var valueSetTables: Set<String> { get }
    /// The event types `apply` folds; the runner skips every other event before it reaches `apply`.
    /// Nil: every event (indexes and statistics of the whole log).
    var eventTypes: Set<String>? { get }
    /// Folds one event into the state. `state.isReplaying` is true during rebuilds: no side effects then.
    func apply(_ event: RecordedEvent, to state: ProjectionState) throws
    /// Folds a run of events — in log order, each of a type in `eventTypes` — as `apply` would one by one. The runner
    /// hands over a commit's events, or a few thousand of a rebuild's at a time; a projection that can gather its
    /// writes (counts summed first, index rows in key order) does so here.
    func apply(_ events: [RecordedEvent], to state: ProjectionState) throws
}

extension Projection {
    public var valueSetTables: Set<String> { [] }

    /// Each event in turn.
    public func apply(_ events: [RecordedEvent], to state: ProjectionState) throws {
        for event in events { try apply(event, to: state) }
    }
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

    /// Folds those of `events` whose types the projection handles, as one run.
    func applyIfHandled(_ events: [RecordedEvent], to state: ProjectionState) throws {
        guard let eventTypes else { return try projection.apply(events, to: state) }
        let handled = events.filter { eventTypes.contains($0.type) }
        if !handled.isEmpty { try projection.apply(handled, to: state) }
    }
}

/// When a projection is applied.
public enum ProjectionMode: String, Sendable, Codable {
    /// In the append transaction.
    case inline
    /// By a tailer after the commit.
    case async
}
