import Foundation

/// A consistent snapshot of the log and its projections, valid inside `EventLog.read`.
public struct LogReader {
    let core: LogCore
    let txn: Transaction
    var reading: LogReading { core.reading(txn) }

    /// Position of the last event; 0 when empty.
    public var head: UInt64 { (try? reading.head()) ?? 0 }

    /// The event at `position`, upcast to its current schema.
    public func event(at position: UInt64) throws -> RecordedEvent? {
        try reading.event(at: position)
    }

    /// The id, type and time of the event at `position`, its body not read.
    public func eventHeader(at position: UInt64) throws -> EventHeader? { try reading.eventHeader(at: position) }

    /// The position a stored event id has.
    public func position(ofEventId id: UUID) throws -> UInt64? { try reading.position(ofEventId: id) }

    /// Version of the stream's last event; 0 when it does not exist.
    public func streamVersion(namespace: String = Names.defaultNamespace, stream: String) throws -> UInt64 {
        try reading.streamVersion(namespace: namespace, stream: stream)
    }

    /// Visits the events matching `query`, in position order, until `body` returns false.
    /// Returns the last position examined, so a tail can continue after it.
    @discardableResult
    public func events(_ query: EventQuery, _ body: (RecordedEvent) throws -> Bool) throws -> UInt64 {
        var remaining = query.limit ?? Int.max
        guard remaining > 0 else { return query.from &- 1 }
        var last = query.from &- 1
        var stoppedEarly = false
        func visit(_ event: RecordedEvent) throws -> Bool {
            last = event.position
            guard query.matches(event) else { return true }
            remaining -= 1
            let more = try body(event) && remaining > 0
            stoppedEarly = !more
            return more
        }
        if let stream = query.stream {
            let namespace = query.namespace ?? Names.defaultNamespace
            try reading.streamPositions(namespace: namespace, stream: stream) { _, position in
                guard position >= query.from else { return true }
                guard let event = try reading.event(at: position) else { return false }
                return try visit(event)
            }
            return stoppedEarly ? last : max(last, head)
        }
        if query.type == nil, let types = query.types, let byType = try currentIndex(PositionIndex.byType.name) {
            // Each type's positions from `from` on, merged: no more than the limit of each is needed, and a list cut
            // there bounds what was looked at (with a namespace to filter by, a page may then hold fewer).
            let cap = remaining
            var positions: [UInt64] = []
            var cutoff = UInt64.max
            for type in types {
                var taken = 0
                try byType.scanValues(PositionIndex.table, key: PositionIndex.key(type), from: query.from) { position in
                    positions.append(position)
                    taken += 1
                    if taken == cap { cutoff = min(cutoff, position) }
                    return taken < cap
                }
            }
            positions.sort()
            for position in positions where position <= cutoff {
                guard let event = try reading.event(at: position), try visit(event) else { break }
            }
            if stoppedEarly { return last }
            return cutoff == .max ? max(last, head) : cutoff
        }
        if let index = try index(for: query) {
            try index.state.scanValues(PositionIndex.table, key: index.key, from: query.from) { position in
                guard let event = try reading.event(at: position) else { return false }
                return try visit(event)
            }
            return stoppedEarly ? last : max(last, head)
        }
        try reading.scan(from: query.from) { try visit($0) }
        return last
    }

    /// All events matching `query`.
    public func events(_ query: EventQuery) throws -> [RecordedEvent] {
        var result: [RecordedEvent] = []
        try events(query) {
            result.append($0); return true
        }
        return result
    }

    /// The current state of a projection.
    public func projection(_ name: String) throws -> ProjectionState {
        try core.projections.state(core.projections.projection(named: name), txn)
    }

    /// Where every registered projection stands.
    public func projectionStatuses() throws -> [ProjectionStatus] {
        let head = self.head
        return try core.projections.projections.map { try core.projections.status($0, head: head, txn) }
    }

    /// A `PositionIndex`'s state and the key of the value asked for.
    private struct Index {
        let state: ProjectionState
        let key: [UInt8]
    }

    /// The state of the position index `name`, when it is current.
    private func currentIndex(_ name: String) throws -> ProjectionState? {
        guard let p = try? core.projections.projection(named: name),
            try core.projections.status(p, head: head, txn).isCurrent
        else { return nil }
        return try core.projections.state(p, txn)
    }

    /// The index answering a type or namespace query, when it is current.
    private func index(for query: EventQuery) throws -> Index? {
        if let type = query.type, let state = try currentIndex(PositionIndex.byType.name) {
            return Index(state: state, key: PositionIndex.key(type))
        }
        if let namespace = query.namespace, let state = try currentIndex(PositionIndex.byNamespace.name) {
            return Index(state: state, key: PositionIndex.key(namespace))
        }
        return nil
    }
}

extension EventLog {
    /// Runs `body` in a read snapshot of the log.
    public func read<T>(_ body: (LogReader) throws -> T) throws -> T {
        try core.environment.read { txn in try body(LogReader(core: core, txn: txn)) }
    }

    /// The position of the last event.
    public var head: UInt64 { (try? read { $0.head }) ?? 0 }

    /// The events matching `query`.
    public func events(_ query: EventQuery) throws -> [RecordedEvent] {
        try read { try $0.events(query) }
    }
}
