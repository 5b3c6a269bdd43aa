/// Whether a geotrigger's monitor runs, as starting or stopping it answers: `{"id","monitor"}` — the members a
/// geotrigger's own JSON has for the same facts.
public struct GeotriggerMonitor: Sendable, Hashable, Codable {
    /// What a monitor is doing.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// The geotrigger's fence crossings notify.
        case running
        /// Its crossings are recorded, and notify no one.
        case stopped
    }

    /// The geotrigger's id.
    public var id: String
    public var monitor: State

    /// Creates a monitor report.
    public init(id: String, monitor: State) {
        self.id = id
        self.monitor = monitor
    }
}
