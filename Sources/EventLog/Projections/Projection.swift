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
    /// Folds one event into the state. `state.isReplaying` is true during rebuilds: no side effects then.
    func apply(_ event: RecordedEvent, to state: ProjectionState) throws
}

/// When a projection is applied.
public enum ProjectionMode: String, Sendable, Codable {
    /// In the append transaction.
    case inline
    /// By a tailer after the commit.
    case async
}
