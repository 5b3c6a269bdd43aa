import Foundation

/// The append rules, applied inside the writer's transaction: idempotency by event id, the
/// expected-version check, contiguous positions and the stream and id indexes.
struct LogAppending {
    let tables: LogTables
    let txn: Transaction

    /// Appends `request` after `head`, stamping `recordedAt`; returns what was stored. Each stored envelope is
    /// added to `chain`, the link of this commit, when the log keeps one.
    func append(
        _ request: AppendRequest, head logHead: UInt64, recordedAt: Int64, chain: inout CommitHasher?
    ) throws -> (
        AppendResult, [RecordedEvent]
    ) {
        try Names.validate(request.namespace, as: "namespace")
        try Names.validate(request.stream, as: "stream name")
        guard !request.events.isEmpty else {
            throw StoreError(.invalidArgument, "an append needs at least one event")
        }
        for event in request.events {
            try Names.validate(event.type, as: "event type")
            try Names.validate(event.actor, as: "actor")
        }
        let reading = LogReading(tables: tables, txn: txn)
        if let duplicate = try previouslyStored(request, reading) { return (duplicate, []) }

        let head = try reading.streamHead(namespace: request.namespace, stream: request.stream)
        let current = head?.version ?? 0
        guard request.expectedVersion.isSatisfied(by: current) else {
            let actual = current == 0 ? "does not exist" : "is at version \(current)"
            throw StoreError(
                .conflict,
                "stream \(String(reflecting: request.stream)) \(actual), but the append expected \(request.expectedVersion)",
                actualVersion: current)
        }

        var previous = head?.position ?? 0
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(request.events.count)
        // Sized once: growing it as the ids went in was an eighth of a bulk append's time.
        var seen = Set<UUID>(minimumCapacity: request.events.count > 1 ? request.events.count : 0)
        for (offset, event) in request.events.enumerated() {
            guard request.events.count == 1 || seen.insert(event.id).inserted else {
                throw StoreError(
                    .invalidArgument,
                    "event id \(event.id.uuidString.lowercased())"
                        + " appears twice in one append")
            }
            let position = logHead + UInt64(offset) + 1
            let stored = RecordedEvent(
                position: position, id: event.id, namespace: request.namespace, stream: request.stream,
                version: current + UInt64(offset) + 1, type: event.type, schemaVersion: event.schemaVersion,
                recordedAt: recordedAt, actor: event.actor, causationId: event.causationId,
                correlationId: event.correlationId, body: event.body)
            try write(stored, previousInStream: previous, chain: &chain)
            previous = position
            recorded.append(stored)
        }
        let last = recorded.last!
        try txn.put(
            tables.streamHeads, Key.joined(request.namespace, request.stream),
            StreamHead.encode(version: last.version, position: last.position))
        let result = AppendResult(
            positions: recorded.map(\.position), version: recorded.last!.version, wasDuplicate: false)
        return (result, recorded)
    }

    /// When every id of the request is stored already, the original result; when only some are, an error.
    private func previouslyStored(_ request: AppendRequest, _ reading: LogReading) throws -> AppendResult? {
        var positions: [UInt64] = []
        for event in request.events {
            if let p = try reading.position(ofEventId: event.id) { positions.append(p) }
        }
        if positions.isEmpty { return nil }
        guard positions.count == request.events.count else {
            throw StoreError(
                .idempotency,
                "\(positions.count) of the \(request.events.count) event ids of this append are stored already (first at position \(positions[0])); retry with exactly the original events or with new ids"
            )
        }
        var version: UInt64 = 0
        for (event, position) in zip(request.events, positions) {
            guard let stored = try reading.event(at: position) else {
                throw StoreError(
                    .corrupt,
                    "event id \(event.id.uuidString.lowercased())"
                        + " points at missing position \(position)")
            }
            guard stored.namespace == request.namespace, stored.stream == request.stream else {
                throw StoreError(
                    .idempotency,
                    "event id \(event.id.uuidString.lowercased()) is already used by stream \(String(reflecting: stored.stream)) at position \(position); use a new id"
                )
            }
            version = stored.version
        }
        return AppendResult(positions: positions, version: version, wasDuplicate: true)
    }

    private func write(_ event: RecordedEvent, previousInStream: UInt64, chain: inout CommitHasher?) throws {
        let envelope = EnvelopeCodec.encode(event, previousInStream: previousInStream)
        let positionKey = Key.position(event.position)
        try positionKey.withUnsafeBytes { k in
            try envelope.withUnsafeBytes { v in
                try txn.put(tables.events, k, v, append: true)
                chain?.add(envelope: v)
            }
        }
        try withUnsafeBytes(of: event.id.uuid) { k in
            try positionKey.withUnsafeBytes { v in try txn.put(tables.eventIds, k, v) }
        }
    }
}
