import Foundation

/// The secrets (push keys) a log's events name by their fingerprint, as the domain tells them: which must reach another
/// copy of the log with the event (a replica of a cluster), and when a secret may have gone out of use. The store knows
/// no event type.
public struct SecretReferences: Sendable {
    /// The fingerprints of the secrets an event names (a push source configured with its key).
    public var named: @Sendable (RecordedEvent) -> [String]
    /// Whether an event may leave a secret unused (a push source removed, or configured with another key).
    public var mayRelease: @Sendable (RecordedEvent) -> Bool
    /// The fingerprints the log uses now.
    public var inUse: @Sendable (EventLog) throws -> Set<String>

    public init(
        named: @escaping @Sendable (RecordedEvent) -> [String],
        mayRelease: @escaping @Sendable (RecordedEvent) -> Bool,
        inUse: @escaping @Sendable (EventLog) throws -> Set<String>
    ) {
        self.named = named
        self.mayRelease = mayRelease
        self.inUse = inUse
    }
}
