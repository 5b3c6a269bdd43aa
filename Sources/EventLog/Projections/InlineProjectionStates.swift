/// The inline projections with active tables in one write transaction, and which of them fold each event type:
/// asked once per type and transaction, not once per event and projection (a commit of 5,000 imported events asked
/// 85,000 times; a batch of device messages, one append per stream, asked every projection for every message).
final class InlineProjectionStates {
    let projections: [any Projection]
    let states: [ProjectionState]
    /// Whether the projection declared no event types: it folds every event.
    let takesEveryType: [Bool]
    private let eventTypes: [Set<String>?]
    private var folding: [String: [Int]] = [:]

    init(_ resolved: [(EventFilteredProjection, ProjectionState)]) {
        projections = resolved.map(\.0.projection)
        states = resolved.map(\.1)
        eventTypes = resolved.map(\.0.eventTypes)
        takesEveryType = eventTypes.map { $0 == nil }
    }

    /// The indices of the projections that fold events of `type`, in order.
    func folding(_ type: String) -> [Int] {
        if let known = folding[type] { return known }
        let indices = eventTypes.indices.filter { eventTypes[$0]?.contains(type) ?? true }
        folding[type] = indices
        return indices
    }
}
