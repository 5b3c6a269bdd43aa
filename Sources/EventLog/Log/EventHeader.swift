import Foundation

/// Who an event is and when it was recorded, read from its envelope without its body: for a reader that keeps
/// decoded bodies by event id (a large body is then neither copied nor checksummed again). Unchecked: the body and
/// checksum are not read, so whatever is kept by `id` must come from a checked read of the event.
public struct EventHeader: Sendable, Hashable {
    public var id: UUID
    public var type: String
    /// When it was recorded, in microseconds since 1970.
    public var recordedAt: Int64
}
