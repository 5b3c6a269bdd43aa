extension EventLog {
    /// The events matching `query`, then every new one as it is committed — by this process or
    /// another one on the same data directory — until the consumer stops iterating.
    ///
    /// Read a page at a time as the consumer asks: a consumer slower than the log holds one page, never the backlog,
    /// and the log is read at the consumer's pace. Caught up, it waits without cost: this process's commits wake it
    /// at once, another process's within 50 ms (one look at the stored head for every follower).
    public func follow(_ query: EventQuery) -> FollowedEvents {
        FollowedEvents(log: self, query: query)
    }

    /// Returns when this process commits past `position`, or after `timeout` (commits of other processes are
    /// seen only by looking again).
    public func waitForCommit(beyond position: UInt64, timeout: Duration) async {
        await signal.wait(beyond: position, timeout: timeout)
    }
}

/// The events of a query as ``EventLog/follow(_:)`` reads them: the recorded ones, then each new one.
/// Iteration ends when its task is cancelled, or after the query's `limit`.
public struct FollowedEvents: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent

    let log: EventLog
    let query: EventQuery

    public func makeAsyncIterator() -> Iterator {
        var next = query
        next.limit = nil
        next.from = Swift.max(next.from, 1)  // positions start at 1; 0 would read as "one before the first"
        return Iterator(log: log, next: next, remaining: query.limit ?? Int.max)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let log: EventLog
        /// What the next page reads: the query from the first position not yet read.
        var next: EventQuery
        var remaining: Int
        var page: [RecordedEvent] = []
        var index = 0
        /// The head examined by the last page that came back short: the next page waits for a commit past it.
        var caughtUp: UInt64?

        public mutating func next() async throws -> RecordedEvent? {
            while index == page.count {
                if let examined = caughtUp {
                    caughtUp = nil
                    await log.signal.wait(beyond: examined)
                }
                guard !Task.isCancelled, remaining > 0 else { return nil }
                try readPage()
            }
            defer { index += 1 }
            return page[index]
        }

        private mutating func readPage() throws {
            var query = next
            query.limit = Swift.min(remaining, 1024)
            var page: [RecordedEvent] = []
            let examined = try log.read { reader in
                try reader.events(query) {
                    page.append($0)
                    return true
                }
            }
            self.page = page
            index = 0
            remaining -= page.count
            if page.count == query.limit {
                next.from = page[page.count - 1].position + 1
            } else {
                next.from = Swift.max(next.from, examined + 1)
                caughtUp = examined
            }
        }
    }
}
