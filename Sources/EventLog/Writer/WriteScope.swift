import Foundation

/// What a command sees on the writer: the write transaction, the log and the inline projections.
///
/// Valid only inside the closure given to `EventLog.perform`. Everything read here is current as of
/// this transaction, so a decision made on it (a quota, a counter, an expected version) cannot race
/// with another one.
public final class WriteScope {
    let txn: Transaction
    let core: LogCore
    let batch: WriterBatch

    init(txn: Transaction, core: LogCore, batch: WriterBatch) {
        self.txn = txn
        self.core = core
        self.batch = batch
    }

    /// Appends events to one stream (idempotent by event id, checked against the expected version)
    /// and applies them to the inline projections.
    @discardableResult
    public func append(_ request: AppendRequest) throws -> AppendResult {
        try core.gate.current?.admit(namespace: request.namespace)
        try startChain()
        let (result, recorded) = try LogAppending(tables: core.tables, txn: txn)
            .append(request, head: batch.head, recordedAt: batch.recordedAt, chain: &batch.chain)
        guard !recorded.isEmpty else { return result }
        try core.projections.applyInline(recorded, txn)
        batch.head = recorded.last!.position
        batch.appended += recorded.count
        return result
    }

    /// Starts this commit's link before its first append, when the log keeps a chain.
    func startChain() throws {
        if batch.chain == nil, batch.appended == 0, let commits = try core.tables.commits(in: txn) {
            let previous = try CommitChain.head(commits, in: txn)?.hash ?? CommitChain.genesis
            batch.chain = CommitHasher(previous: previous, first: batch.head + 1)
        }
    }

    /// Version of a stream's last event; 0 when the stream does not exist.
    public func streamVersion(namespace: String = Names.defaultNamespace, stream: String) throws -> UInt64 {
        try core.reading(txn).streamVersion(namespace: namespace, stream: stream)
    }

    /// The log's last position.
    public var head: UInt64 { batch.head }

    /// The current state of a projection, to read (and, for its own projection code, to write).
    public func projection(_ name: String) throws -> ProjectionState {
        try core.projections.state(core.projections.projection(named: name), txn)
    }

    /// Reads an event by position (upcast to its current schema).
    public func event(at position: UInt64) throws -> RecordedEvent? {
        try core.reading(txn).event(at: position)
    }

    /// The id, type and time of the event at `position`, its body not read.
    public func eventHeader(at position: UInt64) throws -> EventHeader? {
        try core.reading(txn).eventHeader(at: position)
    }

    /// The position of the stored event with this id, or nil (an id is stored once: see `append`).
    public func position(ofEventId id: UUID) throws -> UInt64? {
        try core.reading(txn).position(ofEventId: id)
    }

    /// The store's clock reading for this batch, in microseconds since 1970.
    public var now: Int64 { batch.recordedAt }

    /// Stores the link of this commit when it appended events; the writer calls it just before committing.
    func linkCommit() throws {
        guard batch.appended > 0, let chain = batch.chain, let commits = try core.tables.commits(in: txn) else {
            return
        }
        try CommitChain.put(chain.link(last: batch.head), commits, in: txn)
    }
}

/// State of one write transaction that the jobs in it share; restored when a job fails.
final class WriterBatch {
    var head: UInt64
    var recordedAt: Int64
    var appended = 0
    /// The link of this commit, from its first append on (nil in a log without a chain).
    var chain: CommitHasher?

    init(head: UInt64, recordedAt: Int64) {
        self.head = head
        self.recordedAt = recordedAt
    }
}
