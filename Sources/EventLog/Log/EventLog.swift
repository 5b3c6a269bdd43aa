import Foundation

/// The append-only event log of one data directory, with its projections.
///
/// Appends and commands go to the single writer thread (group commit) and return once durable.
/// Reads run on the caller's thread in lock-free LMDB snapshots. Several processes may open the
/// same directory: LMDB serialises their write transactions and each sees the others' commits.
public final class EventLog: Sendable {
    /// How a log is opened.
    public struct Configuration: Sendable {
        /// Projections maintained by this release; the built-in indexes by default.
        public var projections: [any Projection] = EventLog.builtInProjections
        /// Upcasters applied on every read.
        public var upcasters = UpcasterRegistry([])
        /// Store-format migrations, the built-in ones first; the format this release writes is
        /// `1 + migrations.count`.
        public var migrations: [any StoreMigration] = EventLog.builtInMigrations
        /// Microseconds since 1970, for `recordedAt`. Tests inject a fixed clock.
        public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }
        /// Map size limits.
        public var limits = Environment.Limits()
        /// Open a directory of an older format (only `muster migrate` does).
        public var allowOlderFormat = false
        /// Most jobs in one write transaction.
        public var maximumBatch = 4096
        /// Told of every commit of the writer, on the writer thread after the commit: keep it short.
        public var commitObserver: (@Sendable (Commit) -> Void)?

        public init() {}

        /// The format version this configuration writes.
        public var formatVersion: UInt32 { 1 + UInt32(migrations.count) }
    }

    /// One durable commit of the writer, as metrics see it.
    public struct Commit: Sendable, Hashable {
        /// Commands (appends, `perform` jobs) in the transaction, rejected ones included.
        public var jobs: Int
        /// Events appended.
        public var events: UInt64
        /// From the transaction's start to the commit's return.
        public var duration: Duration
    }

    /// The projections every log has: the type and namespace indexes and the statistics.
    public static let builtInProjections: [any Projection] = [
        PositionIndex.byType, PositionIndex.byNamespace, LogStatistics(),
    ]

    let core: LogCore
    let writer: Writer
    let signal: HeadSignal
    /// The configuration the log was opened with.
    public let configuration: Configuration

    /// The data directory.
    public var directory: URL { core.environment.directory }
    /// The LMDB environment (for operations such as backup and status).
    public var environment: Environment { core.environment }

    /// The store's failure: when LMDB marks the environment failed (a commit the disk refused to finish), every
    /// read and write of this process fails until the data directory is opened again. Returns that error once it
    /// happened (at once if it has); nil when the waiting task is cancelled.
    public func failure() async -> StoreError? { await core.environment.failure.wait() }

    /// Opens the log in `directory`, creating it when new.
    public init(directory: URL, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let environment = try Environment(directory: directory, limits: configuration.limits)
        do {
            let tables = try Self.prepare(environment, configuration)
            core = LogCore(
                environment: environment, tables: tables,
                projections: ProjectionRuntime(
                    projections: configuration.projections, meta: tables.meta, upcasters: configuration.upcasters),
                upcasters: configuration.upcasters, clock: configuration.clock)
        } catch {
            environment.close()
            throw Self.explained(error, directory: directory)
        }
        let core = self.core
        let signal = HeadSignal(storedHead: {
            try? core.environment.read { try LogReading(tables: core.tables, txn: $0).head() }
        })
        self.signal = signal
        let observer = configuration.commitObserver
        writer = Writer(core: core, maximumBatch: configuration.maximumBatch) { head, commit in
            signal.publish(head)
            observer?(commit)
        }
        writer.start()
        if let head = try? read({ $0.head }) { signal.publish(head) }
    }

    /// Finishes queued writes, stops the writer thread and closes the data directory; appends after it fail
    /// with `.closed`. Waits for the writes in the queue: each acknowledged append is durable when it returns.
    public func close() {
        writer.close()
        core.environment.close()
    }

    // Waits for nothing: the writer drains its queue and ends on its own thread, and the data directory
    // closes when the last of them lets go of it.
    deinit { writer.close(waiting: false) }

    /// LMDB's own word for damaged pages, met while opening, said as what it means for the directory.
    private static func explained(_ error: any Error, directory: URL) -> any Error {
        guard let error = error as? StoreError, error.isDamage else { return error }
        return StoreError(
            .corrupt,
            "data directory \(directory.path) is damaged: \(error.message)", returnCode: error.returnCode,
            remedy: .restoreBackup(directory: directory.path))
    }

    /// Creates the log tables on first open and checks the stored format.
    private static func prepare(_ environment: Environment, _ configuration: Configuration) throws -> LogTables {
        let current = configuration.formatVersion
        if let tables = try LogTables.existing(in: environment) {
            let stored = try environment.read { try Meta(table: tables.meta).formatVersion(in: $0) } ?? 1
            guard stored > 0 else {
                throw StoreError(
                    .corrupt,
                    "data directory \(environment.directory.path) is damaged: its format version is unreadable",
                    remedy: .restoreBackup(directory: environment.directory.path))
            }
            if stored > UInt64(current) {
                throw StoreError(
                    .newerFormat,
                    "data directory \(environment.directory.path) has format \(stored), written by a newer Muster; this release reads up to format \(current) — upgrade Muster"
                )
            }
            if stored < UInt64(current) && !configuration.allowOlderFormat {
                throw StoreError(
                    .olderFormat,
                    "data directory \(environment.directory.path) has format \(stored); this release needs format \(current)",
                    remedy: .migrate)
            }
            return tables
        }
        // Creating the log in another program's LMDB database would write into it.
        let foreign = try environment.tableNames()
        if !foreign.isEmpty {
            throw StoreError(
                .notDataDirectory,
                "\(environment.directory.path) is not a Muster data directory: its LMDB database holds \(foreign.count) other table(s) and no event log; give --data a Muster data directory or a new one"
            )
        }
        let txn = try environment.beginWrite()
        do {
            let tables = try LogTables.create(in: txn)
            let meta = Meta(table: tables.meta)
            if try meta.integer(Meta.formatVersion, in: txn) == nil {
                try meta.setInteger(Meta.formatVersion, UInt64(current), in: txn)
            }
            try ProjectionRuntime(projections: configuration.projections, meta: tables.meta).initializeEmpty(txn)
            try environment.commit(txn)
            return tables
        } catch {
            environment.abort(txn)
            throw error
        }
    }

    // MARK: Writing

    /// Appends events to a stream; returns once they are durable.
    @discardableResult
    public func append(_ request: AppendRequest) async throws -> AppendResult {
        try await perform { try $0.append(request) }
    }

    /// Runs `work` on the writer thread inside the write transaction and returns its result once the
    /// transaction is durable. `work` may be run again if the map had to grow, so it must depend only
    /// on what it reads through the scope. If it throws, nothing it wrote is kept.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (WriteScope) throws -> T) async throws -> T {
        let (value, appendedThrough) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(T, UInt64), any Error>) in
            writer.submit(
                ClosureJob(work) { result, through in continuation.resume(with: result.map { ($0, through) }) })
        }
        if appendedThrough > 0, let gate = core.gate.current { try await gate.acknowledged(through: appendedThrough) }
        return value
    }

    /// `perform`, handed to the writer before this returns: writes submitted one after the other run in that order,
    /// while the caller goes on (preparing the next) and awaits each one's `value` later.
    public func submit<T: Sendable>(_ work: @escaping @Sendable (WriteScope) throws -> T) -> PendingWrite<T> {
        let pending = PendingWrite<T>(gate: core.gate.current)
        writer.submit(ClosureJob(work) { result, through in pending.settle(result, appendedThrough: through) })
        return pending
    }
}
