extension EventLog {
    /// The events matching `query`, then every new one as it is committed — by this process or
    /// another one on the same data directory — until the consumer stops iterating.
    public func follow(_ query: EventQuery, pollInterval: Duration = .milliseconds(50)) -> AsyncThrowingStream<
        RecordedEvent, any Error
    > {
        let (stream, continuation) = AsyncThrowingStream<RecordedEvent, any Error>.makeStream(
            bufferingPolicy: .unbounded)
        let task = Task { [self] in
            var next = query
            next.limit = nil
            next.from = max(next.from, 1)  // positions start at 1; 0 would read as "one before the first"
            var remaining = query.limit ?? Int.max
            do {
                while !Task.isCancelled && remaining > 0 {
                    var page: [RecordedEvent] = []
                    var pageQuery = next
                    pageQuery.limit = min(remaining, 1024)
                    let examined = try read { reader in
                        try reader.events(pageQuery) {
                            page.append($0); return true
                        }
                    }
                    for event in page { continuation.yield(event) }
                    remaining -= page.count
                    if page.count == pageQuery.limit {
                        next.from = page.last!.position + 1
                        continue
                    }
                    next.from = max(next.from, examined + 1)
                    await signal.wait(beyond: examined, timeout: pollInterval)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Returns when this process commits past `position`, or after `timeout` (commits of other processes are
    /// seen only by looking again).
    public func waitForCommit(beyond position: UInt64, timeout: Duration) async {
        await signal.wait(beyond: position, timeout: timeout)
    }
}
