import Foundation

/// The log half of `verify`: events, positions, stream versions and chains, the stream heads and the
/// id index, in one pass over `events` plus a look at the indexes for entries no event accounts for.
struct LogIntegrityCheck {
    let tables: LogTables
    let txn: Transaction
    let progress: @Sendable (OperationProgress) -> Void

    func run(_ report: inout VerifyReport) throws {
        let total = UInt64(try txn.count(tables.events))
        var expected: UInt64 = 1
        var streams: [[UInt8]: (version: UInt64, position: UInt64)] = [:]
        try txn.scan(tables.events) { key, value in
            guard key.count == 8 else {
                report.add(
                    "events", "a key of \(key.count) bytes follows position \(expected - 1); keys are 8-byte positions")
                return true
            }
            let position = Key.readPosition(key)
            if position != expected {
                report.add("events", "positions jump from \(expected - 1) to \(position); positions must be contiguous")
            }
            expected = position + 1
            report.events += 1
            report.head = position
            if report.events % 50_000 == 0 {
                progress(OperationProgress(phase: "events", done: report.events, total: total, unit: "events"))
            }
            let event: RecordedEvent
            do {
                event = try EnvelopeCodec.decode(position: position, value)
            } catch let error as StoreError {
                report.add("events", error.message, remedy: error.remedy)
                return true
            }
            let previous = try EnvelopeCodec.chainLink(position: position, value).previous
            try check(event, previousInStream: previous, streams: &streams, &report)
            return true
        }
        progress(OperationProgress(phase: "events", done: report.events, total: total, unit: "events"))
        // Equal counts with no entry missing mean no extra entries either; otherwise look for them.
        let damaged = Set(report.problems.map(\.area))
        try checkStreamHeads(streams, &report)
        if try damaged.contains("eventIds") || UInt64(txn.count(tables.eventIds)) != report.events {
            try findExtraEventIds(&report)
        }
    }

    private func check(
        _ event: RecordedEvent, previousInStream: UInt64,
        streams: inout [[UInt8]: (version: UInt64, position: UInt64)], _ report: inout VerifyReport
    ) throws {
        let stream = Key.joined(event.namespace, event.stream)
        let last = streams[stream] ?? (0, 0)
        if event.version != last.version + 1 {
            report.add(
                "streams",
                "stream \(event.namespace)/\(event.stream) has version \(event.version) at position \(event.position) after version \(last.version); versions must run 1, 2, 3 …"
            )
        }
        if previousInStream != last.position {
            report.add(
                "streams",
                "stream \(event.namespace)/\(event.stream) version \(event.version) at position \(event.position) links back to position \(previousInStream), not \(last.position); the stream chain is damaged — restore from a backup"
            )
        }
        streams[stream] = (max(last.version, event.version), event.position)
        let byId = try withUnsafeBytes(of: event.id.uuid) { try txn.get(tables.eventIds, $0).map { Array($0) } }
        if byId != Key.position(event.position) {
            let found =
                byId.map {
                    $0.count == 8 ? "position \($0.withUnsafeBytes { Key.readPosition($0) })" : "\($0.count) bytes"
                } ?? "nothing"
            report.add(
                "eventIds",
                "event id \(event.id.uuidString.lowercased())"
                    + " at position \(event.position) maps to \(found)")
        }
    }

    /// Every stream's head row names its last version and position, and no row names a stream
    /// that has no events.
    private func checkStreamHeads(
        _ streams: [[UInt8]: (version: UInt64, position: UInt64)], _ report: inout VerifyReport
    ) throws {
        func name(_ key: [UInt8]) -> String {
            String(decoding: key.map { $0 == 0 ? UInt8(ascii: "/") : $0 }.dropLast(), as: UTF8.self)
        }
        for (key, last) in streams {
            let stored = try key.withUnsafeBytes { try txn.get(tables.streamHeads, $0).flatMap(StreamHead.decode) }
            if stored?.version != last.version || stored?.position != last.position {
                let found = stored.map { "version \($0.version) at position \($0.position)" } ?? "nothing"
                report.add(
                    "streams",
                    "stream \(name(key)) ends with version \(last.version) at position \(last.position), but its head row says \(found); the stream heads are damaged — restore from a backup"
                )
            }
        }
        if try UInt64(txn.count(tables.streamHeads)) != UInt64(streams.count) {
            try txn.scan(tables.streamHeads) { key, _ in
                if streams[Array(key)] == nil {
                    report.add("streams", "head row for stream \(name(Array(key))) matches no event")
                }
                return true
            }
        }
    }

    /// Entries of `eventIds` whose position holds an event with another id.
    private func findExtraEventIds(_ report: inout VerifyReport) throws {
        try txn.scan(tables.eventIds) { key, value in
            let position = value.count == 8 ? Key.readPosition(value) : 0
            let id = key.count == 16 ? UUID(uuid: key.loadUnaligned(as: uuid_t.self)) : nil
            if let header = try header(at: position), header.id == id { return true }
            report.add(
                "eventIds", "entry \(id?.uuidString ?? "of \(key.count) bytes") → position \(position) matches no event"
            )
            return true
        }
    }

    private func header(at position: UInt64) throws -> EnvelopeCodec.Header? {
        guard let bytes = try LogReading(tables: tables, txn: txn).envelope(at: position) else { return nil }
        return try? EnvelopeCodec.header(position: position, bytes)
    }
}
