import Foundation

extension LogAppending {
    /// Appends an event as another log stored it, at the same position and with the same bytes: the position must
    /// be the next one, the event's id new, and its stream version and previous-in-stream position must continue
    /// the stream as this log holds it — otherwise this log and the one the event comes from have diverged.
    func appendStored(_ stored: StoredEvent, head: UInt64, chain: inout CommitHasher?) throws -> RecordedEvent {
        guard stored.position == head + 1 else {
            throw StoreError(
                .conflict,
                "a replicated event at position \(stored.position) does not follow this log's head \(head); events are replicated in order, each once"
            )
        }
        let (event, previousInStream) = try stored.envelope.withUnsafeBytes { bytes in
            (
                try EnvelopeCodec.decode(position: stored.position, bytes),
                bytes.loadUnaligned(fromByteOffset: EnvelopeCodec.previousOffset, as: UInt64.self).littleEndian
            )
        }
        let reading = LogReading(tables: tables, txn: txn)
        if let position = try reading.position(ofEventId: event.id) {
            throw StoreError(
                .idempotency,
                "the replicated event at position \(stored.position) has id \(event.id.uuidString.lowercased()), which this log holds at position \(position): the logs have diverged"
            )
        }
        let streamHead = try reading.streamHead(namespace: event.namespace, stream: event.stream)
        guard event.version == (streamHead?.version ?? 0) + 1, previousInStream == streamHead?.position ?? 0 else {
            throw StoreError(
                .conflict,
                "the replicated event at position \(stored.position) is version \(event.version) of stream \(String(reflecting: event.stream)) after position \(previousInStream), but this log holds version \(streamHead?.version ?? 0) at position \(streamHead?.position ?? 0): the logs have diverged"
            )
        }
        let positionKey = Key.position(stored.position)
        try positionKey.withUnsafeBytes { key in
            try stored.envelope.withUnsafeBytes { value in
                try txn.put(tables.events, key, value, append: true)
                chain?.add(envelope: value)
            }
        }
        try withUnsafeBytes(of: event.id.uuid) { key in
            try positionKey.withUnsafeBytes { value in try txn.put(tables.eventIds, key, value) }
        }
        try txn.put(
            tables.streamHeads, Key.joined(event.namespace, event.stream),
            StreamHead.encode(version: event.version, position: stored.position))
        return event
    }
}

extension WriteScope {
    /// Appends events another log stored (a replica following its primary), each at its own position with its
    /// own bytes, and applies them to the inline projections. See `LogAppending.appendStored`.
    public func appendStored(_ events: [StoredEvent]) throws {
        guard !events.isEmpty else { return }
        try startChain()
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(events.count)
        let appending = LogAppending(tables: core.tables, txn: txn)
        for stored in events {
            let event = try appending.appendStored(
                stored, head: batch.head + UInt64(recorded.count), chain: &batch.chain)
            recorded.append(event)
        }
        try core.projections.applyInline(recorded, txn)
        batch.head = recorded.last!.position
        batch.appended += recorded.count
    }
}

extension EventLog {
    /// Appends events another log stored, at their positions with their bytes (see `WriteScope.appendStored`);
    /// returns once they are durable, without asking the write gate (they are replicated already). Nothing of a
    /// refused run is kept.
    public func appendStored(_ events: [StoredEvent]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writer.submit(
                ClosureJob({ try $0.appendStored(events) }) { result, _ in continuation.resume(with: result) })
        }
    }
}
