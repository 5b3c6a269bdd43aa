extension MigrationScope {
    /// Creates the `commits` table when missing and adds one link over every event that no link covers yet
    /// (in a format-1 directory: the whole log). Returns that link, or nil when every event was linked.
    ///
    /// One link, not one per event or per original commit: format 1 kept no commit boundaries, and links per
    /// event would cost a row each while proving no more — a changed event still changes the head hash.
    @discardableResult
    func linkUnchainedEvents() throws -> CommitChain.Link? {
        guard let events = try table(LogTables.names.events),
            let commits = try table(LogTables.names.commits, create: true)
        else { return nil }
        let previous = try CommitChain.head(commits, in: transaction)
        let first = (previous?.last ?? 0) + 1
        var hasher = CommitHasher(previous: previous?.hash ?? CommitChain.genesis, first: first)
        var last: UInt64 = 0
        try Key.position(first).withUnsafeBytes { start in
            try transaction.scan(events, from: start) { key, value in
                guard key.count == 8 else {
                    throw StoreError(
                        .corrupt, "the events table has a key of \(key.count) bytes after position \(last)",
                        remedy: .verifyAndRestore)
                }
                let position = Key.readPosition(key)
                guard position == (last == 0 ? first : last + 1) else {
                    throw StoreError(
                        .corrupt, "positions jump from \(max(last, first - 1)) to \(position); events are missing",
                        remedy: .verifyAndRestore)
                }
                hasher.add(envelope: value)
                last = position
                return true
            }
        }
        guard last > 0 else { return nil }
        let link = hasher.link(last: last)
        try CommitChain.put(link, commits, in: transaction)
        return link
    }
}
