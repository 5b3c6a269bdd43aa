/// The chain half of `verify`: every link of `commits` recomputed from the events it covers.
///
/// Each link is judged against the stored hash of the link before it, so one changed event names one
/// commit; a link that does not start where the one before ended names a removed or reordered commit.
/// When every link up to a position passes, the stored chain up to there equals the one recomputed from the
/// events alone (by induction from the zero hash), which is what a checkpoint check relies on.
struct ChainIntegrityCheck {
    let tables: LogTables
    let txn: Transaction
    var progress: @Sendable (OperationProgress) -> Void = { _ in }
    /// Called with each event the walk reads (position, envelope as stored); what it throws ends the walk.
    var eachEvent: ((UInt64, UnsafeRawBufferPointer) throws -> Void)?

    /// What the walk found.
    struct Outcome {
        /// The last link checked; nil when the chain is empty or missing.
        var head: CommitChain.Link?
        /// Links checked.
        var links: UInt64 = 0
        /// Problems, in order, each naming positions.
        var problems: [String] = []
        /// True when the log has events but no chain at all (a format-1 directory not yet migrated).
        var chainMissing = false
    }

    /// Walks the chain from its start, or from the link after `start` (judged against `start`'s stored hash); with
    /// `through`, stops after the link ending at that position. Two walks that meet at one link check what one does.
    func run(after start: CommitChain.Link? = nil, through stop: UInt64? = nil) throws -> Outcome {
        var outcome = Outcome()
        let head = try LogReading(tables: tables, txn: txn).head()
        guard let commits = try tables.commits(in: txn) else {
            if head > 0 {
                outcome.chainMissing = true
                outcome.problems.append("the log has no commit chain: it was written before format 2")
            }
            return outcome
        }
        var previous = start?.hash ?? CommitChain.genesis
        var expected = (start?.last ?? 0) + 1
        var malformed = false
        let events = try Cursor(txn, tables.events)
        defer { events.close() }
        func visit(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool {
            guard let link = CommitChain.decode(key: key, value: value) else {
                outcome.problems.append(
                    "the link row after position \(expected - 1) is malformed (\(key.count)-byte key, \(value.count)-byte value); the chain cannot be followed past it"
                )
                malformed = true
                return false
            }
            if let stop, link.last > stop { return false }
            if link.first != expected {
                outcome.problems.append(
                    "the chain jumps from position \(expected - 1) to a commit of positions \(link.first)…\(link.last); a commit was removed or reordered"
                )
            }
            let computed = try recompute(link, previous: previous, events: events, &outcome.problems)
            if computed != link.hash {
                outcome.problems.append(
                    "the commit of positions \(link.first)…\(link.last) does not match its link hash (stored \(CommitChain.hex(link.hash).prefix(16))…, computed \(CommitChain.hex(computed).prefix(16))…): an event in it, or the chain before it, was changed"
                )
            }
            previous = link.hash
            expected = link.last + 1
            outcome.head = link
            outcome.links += 1
            if outcome.links % 50_000 == 0 {
                progress(OperationProgress(phase: "chain", done: link.last, total: stop ?? head, unit: "events"))
            }
            return stop != link.last
        }
        if let start {
            try Key.position(start.last + 1).withUnsafeBytes { try txn.scan(commits, from: $0, visit) }
        } else {
            try txn.scan(commits, visit)
        }
        guard !malformed else { return outcome }
        if let stop {
            if outcome.head?.last != stop {
                outcome.problems.append("no commit of the chain ends at position \(stop)")
            }
        } else if expected - 1 < head {
            outcome.problems.append(
                "positions \(expected)…\(head) are in no link of the chain; they were appended without it or their links were removed"
            )
        } else if expected - 1 > head {
            outcome.problems.append(
                "the chain runs to position \(expected - 1) but the log ends at \(head); events were removed")
        }
        return outcome
    }

    /// The hash of `link` computed from the stored events, noting positions it covers that are missing.
    /// `events` is one cursor shared by the whole walk: it moves forward only, unless a link starts behind it.
    private func recompute(
        _ link: CommitChain.Link, previous: [UInt8], events: Cursor, _ problems: inout [String]
    ) throws -> [UInt8] {
        var hasher = CommitHasher(previous: previous, first: link.first)
        var next = link.first
        var entry = try Key.position(link.first).withUnsafeBytes { try events.seek($0) }
        while let (key, value) = entry, key.count == 8 {
            let position = Key.readPosition(key)
            guard position <= link.last else { break }
            if position != next {
                problems.append(
                    "positions \(next)…\(position - 1) of the commit of positions \(link.first)…\(link.last) are missing"
                )
            }
            try eachEvent?(position, value)
            hasher.add(envelope: value)
            next = position + 1
            entry = try events.next()
        }
        if next <= link.last {
            problems.append(
                "positions \(next)…\(link.last) of the commit of positions \(link.first)…\(link.last) are missing")
        }
        return hasher.link(last: link.last).hash
    }
}
