import Foundation

/// The log half of `verify`: events, positions, stream versions and the two indexes, in one pass
/// over `events` plus a look at the indexes for entries no event accounts for.
struct LogIntegrityCheck {
    let tables: LogTables
    let txn: Transaction
    let progress: @Sendable (OperationProgress) -> Void

    func run(_ report: inout VerifyReport) throws {
        let total = UInt64(try txn.count(tables.events))
        var expected: UInt64 = 1
        var streamVersions: [[UInt8]: UInt64] = [:]
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
                report.add("events", error.message)
                return true
            }
            try check(event, streamVersions: &streamVersions, &report)
            return true
        }
        progress(OperationProgress(phase: "events", done: report.events, total: total, unit: "events"))
        // Equal counts with no entry missing mean no extra entries either; otherwise look for them.
        let damaged = Set(report.problems.map(\.area))
        if try damaged.contains("streams") || UInt64(txn.count(tables.streams)) != report.events {
            try findExtraStreamEntries(&report)
        }
        if try damaged.contains("eventIds") || UInt64(txn.count(tables.eventIds)) != report.events {
            try findExtraEventIds(&report)
        }
    }

    private func check(_ event: RecordedEvent, streamVersions: inout [[UInt8]: UInt64], _ report: inout VerifyReport)
        throws
    {
        let stream = Key.joined(event.namespace, event.stream)
        let previous = streamVersions[stream] ?? 0
        if event.version != previous + 1 {
            report.add(
                "streams",
                "stream \(event.namespace)/\(event.stream) has version \(event.version) at position \(event.position) after version \(previous); versions must run 1, 2, 3 …"
            )
        }
        streamVersions[stream] = max(previous, event.version)
        let indexed = try txn.get(tables.streams, stream + Key.position(event.version))
        if indexed != Key.position(event.position) {
            let found =
                indexed.map {
                    $0.count == 8 ? "position \($0.withUnsafeBytes { Key.readPosition($0) })" : "\($0.count) bytes"
                } ?? "nothing"
            report.add(
                "streams",
                "stream \(event.namespace)/\(event.stream) version \(event.version) should map to position \(event.position) but maps to \(found); the stream index is damaged — restore from a backup"
            )
        }
        let byId = try withUnsafeBytes(of: event.id.uuid) { try txn.get(tables.eventIds, $0).map { Array($0) } }
        if byId != Key.position(event.position) {
            let found =
                byId.map {
                    $0.count == 8 ? "position \($0.withUnsafeBytes { Key.readPosition($0) })" : "\($0.count) bytes"
                } ?? "nothing"
            report.add("eventIds", "event id \(event.id) at position \(event.position) maps to \(found)")
        }
    }

    /// Entries of `streams` whose position holds no event of that stream and version.
    private func findExtraStreamEntries(_ report: inout VerifyReport) throws {
        try txn.scan(tables.streams) { key, value in
            let parts = key.count > 8 ? Array(key[..<(key.count - 8)]) : []
            let version = key.count > 8 ? Key.readPosition(key, at: key.count - 8) : 0
            let position = value.count == 8 ? Key.readPosition(value) : 0
            if let header = try header(at: position), Key.joined(header.namespace, header.stream) == parts,
                header.version == version
            {
                return true
            }
            let name = String(decoding: parts.map { $0 == 0 ? UInt8(ascii: "/") : $0 }.dropLast(), as: UTF8.self)
            report.add("streams", "entry \(name) version \(version) → position \(position) matches no event")
            return true
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
