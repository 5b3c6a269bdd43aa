import EventLog

extension WriteScope {
    /// Records the removal of what `found` is — read in this transaction, nil when there is nothing by that name —
    /// and returns it; for nothing, throws `.notFound` with `missing` (naming `field`) and writes nothing.
    @discardableResult
    func remove<Found>(
        _ found: Found?, else missing: @autoclosure () -> String, field: String? = nil,
        recording removal: some DomainEvent, in stream: String, namespace: String, actor: String
    ) throws -> Found {
        guard let found else { throw MusterError(.notFound, missing(), field: field) }
        try append(AppendRequest(namespace: namespace, stream: stream, events: [removal.newEvent(actor: actor)]))
        return found
    }
}
