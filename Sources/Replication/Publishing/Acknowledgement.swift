/// When a write to a replicated namespace is answered.
public enum Acknowledgement: Sendable, Hashable {
    /// Once it is durable on this node; replication trails (`--acknowledge local`).
    case local
    /// Once the stream acknowledged every event it appended, on a majority of its servers (`--acknowledge
    /// replicated`); a write not acknowledged within `timeout` is answered with `ReplicationError` `unavailable`.
    case replicated(timeout: Duration)
}
