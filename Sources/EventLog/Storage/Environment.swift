import CLMDB
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open LMDB environment: one data directory, memory-mapped.
///
/// Owns the `MDB_env*` handle. Read transactions may be opened from any thread (`MDB_NOTLS`);
/// write transactions are opened only by the `Writer` thread of this process. The map is grown by
/// the writer when a commit runs out of room, which LMDB allows only while this process has no
/// transaction open, so every transaction holds `resizeLock` shared and growth holds it exclusively.
public final class Environment: @unchecked Sendable {
    /// Sizes and limits of the memory map.
    public struct Limits: Sendable {
        /// Map size the environment starts with. It is address space, not disk: the file grows only
        /// as pages are written. Large, because growing the map must wait until no transaction of the
        /// process is open (a long backup or verify would hold every other reader behind it).
        public var initialMapSize: Int = 16 << 30
        /// Upper bound for automatic growth; reaching it fails the append with `.mapLimit`.
        public var maximumMapSize: Int = 1 << 40
        /// How many named tables the environment may hold (log tables plus projection generations).
        public var maximumTables: UInt32 = 512
        /// How many concurrent readers, across all processes.
        public var maximumReaders: UInt32 = 1022

        public init() {}
    }

    let raw: OpaquePointer
    /// The data directory.
    public let directory: URL
    let limits: Limits
    let readOnly: Bool
    /// True when opening removed the group and other permission bits from the directory or its files,
    /// which older releases left readable by every local user.
    public let tightenedPermissions: Bool
    private let resizeLock: UnsafeMutablePointer<pthread_rwlock_t>
    /// Table handles by name, shared by every transaction of this process.
    private let tables = Mutex<[String: MDB_dbi]>([:])
    /// Counts the commits that dropped tables (whose handles LMDB then closes): a table handle kept outside this
    /// environment's own cache is good only while the count is what it was when the handle was looked up.
    let droppedTablesEpoch = Atomic<UInt64>(0)
    /// Held by the writer for the life of each write transaction, and by whoever opens a table handle outside
    /// one. LMDB gives a new handle the next slot in the opening transaction's view of the open handles, so two
    /// transactions opening tables at once — or a read transaction opening one while a write transaction is
    /// live — get the same slot for different tables, and one table's reads then go to the other
    /// (`mdb_dbi_open` must not be called from concurrent transactions).
    private let openLock: UnsafeMutablePointer<pthread_mutex_t>
    private let closed = Atomic<Bool>(false)
    /// The shared lock on the directory for as long as it is open here, which a restore must wait out.
    private let use: DirectoryUse
    /// Set once LMDB reports the environment failed (`MDB_PANIC`).
    let failure = EnvironmentFailure()
    /// Reads the pages LMDB will write next into the page cache first (Linux; nil when read-only).
    private let primer: PageCachePrimer?
    /// LMDB's descriptor of the data file.
    private let dataFile: Int32

    /// Opens (creating when missing) the environment in `directory`.
    ///
    /// A path that is a file, a directory this user cannot write, or a data file that is damaged or cut
    /// short is refused with one line naming the directory, before LMDB creates or maps anything there.
    public init(directory: URL, limits: Limits = Limits(), readOnly: Bool = false) throws {
        self.directory = directory
        self.limits = limits
        self.readOnly = readOnly
        try DataDirectory.prepare(directory, readOnly: readOnly)
        use = try DirectoryUse.shared(directory)
        // Once `raw` is set every stored property is, and a throw would run `deinit`: the handle is
        // assigned only after everything that can fail, so it is closed exactly once.
        raw = try Self.open(directory, limits: limits, readOnly: readOnly)
        tightenedPermissions = readOnly ? false : DataDirectory.tighten(directory)
        resizeLock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
            // Growth must not starve behind a steady stream of readers.
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        pthread_rwlock_init(resizeLock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        openLock = .allocate(capacity: 1)
        var mutexAttributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&mutexAttributes)
        // A thread that opens a table outside its own live write transaction is told so, not deadlocked.
        pthread_mutexattr_settype(&mutexAttributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(openLock, &mutexAttributes)
        pthread_mutexattr_destroy(&mutexAttributes)
        var file: Int32 = -1
        mdb_env_get_fd(raw, &file)
        dataFile = file
        var stat = MDB_stat()
        mdb_env_stat(raw, &stat)
        primer =
            readOnly
            ? nil
            : PageCachePrimer(
                dataFile: directory.appendingPathComponent(DataDirectory.dataFileName).path,
                pageSize: Int(stat.ms_psize))
        try openExistingTables()
    }

    /// Opens an LMDB environment in `directory`; on failure closes it again and throws.
    private static func open(_ directory: URL, limits: Limits, readOnly: Bool) throws -> OpaquePointer {
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create")
        guard let raw = env else { throw StoreError(.lmdb, "mdb_env_create returned no environment") }
        do {
            try check(mdb_env_set_maxdbs(raw, limits.maximumTables), "mdb_env_set_maxdbs")
            try check(mdb_env_set_maxreaders(raw, limits.maximumReaders), "mdb_env_set_maxreaders")
            let dataFile = directory.appendingPathComponent(DataDirectory.dataFileName)
            let existing = fileSize(dataFile)
            let size = max(limits.initialMapSize, roundUp(existing))
            try check(mdb_env_set_mapsize(raw, size), "mdb_env_set_mapsize")
            var flags = UInt32(MDB_NOTLS) | UInt32(MDB_NORDAHEAD)
            if readOnly { flags |= UInt32(MDB_RDONLY) }
            let rc = mdb_env_open(raw, directory.path, flags, DataDirectory.fileMode)
            if rc != 0 {
                throw StoreError(
                    .lmdb, "cannot open data directory \(directory.path): \(StoreError.errorText(rc))", returnCode: rc)
            }
            // The header was checked before the open; LMDB's own view is checked too, so no page is ever
            // read past the end of the file (SIGBUS).
            var info = MDB_envinfo()
            mdb_env_info(raw, &info)
            var stat = MDB_stat()
            mdb_env_stat(raw, &stat)
            let used = (info.me_last_pgno + 1) * Int(stat.ms_psize)
            let actual = fileSize(dataFile)
            if actual < used {
                throw StoreError(
                    .corrupt,
                    "data directory \(directory.path) is damaged: data.mdb is \(actual) bytes but its pages reach byte \(used) (the file was cut short)",
                    remedy: .restoreBackup(directory: directory.path))
            }
            // Free reader slots left behind by processes that died (a SIGKILLed CLI, a crashed server),
            // which would otherwise keep old pages from being reused and grow the file.
            var stale: Int32 = 0
            mdb_reader_check(raw, &stale)
            return raw
        } catch {
            mdb_env_close(raw)
            throw error
        }
    }

    deinit {
        close()
        pthread_rwlock_destroy(resizeLock)
        resizeLock.deallocate()
        pthread_mutex_destroy(openLock)
        openLock.deallocate()
    }

    /// Closes the environment once the transactions in flight have ended; later ones fail with `.closed`.
    public func close() {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        if closed.exchange(true, ordering: .acquiringAndReleasing) { return }
        primer?.stop()
        mdb_env_close(raw)
        use.release()
    }

    /// The current size of the memory map in bytes.
    public var mapSize: Int {
        var info = MDB_envinfo()
        mdb_env_info(raw, &info)
        return info.me_mapsize
    }

    /// Bytes of the map in use (pages up to the last used one).
    public var usedSize: Int {
        var info = MDB_envinfo()
        mdb_env_info(raw, &info)
        var stat = MDB_stat()
        mdb_env_stat(raw, &stat)
        return (info.me_last_pgno + 1) * Int(stat.ms_psize)
    }

    // MARK: Transactions

    /// Runs `body` inside a read-only snapshot of the environment.
    ///
    /// When `body` needs a table this process has no handle for yet (one another process made since this one
    /// opened), the handle is opened in a transaction of its own and `body` runs again in a new snapshot.
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        var opened = 0
        while true {
            do {
                return try readOnce(body)
            } catch is TableHandleOpened where opened < limits.maximumTables {
                opened += 1
            }
        }
    }

    private func readOnce<T>(_ body: (Transaction) throws -> T) throws -> T {
        let txn = try begin(flags: UInt32(MDB_RDONLY), "mdb_txn_begin(read)")
        defer {
            // Committing a read transaction (instead of aborting) keeps table handles opened in it.
            mdb_txn_commit(txn)
            pthread_rwlock_unlock(resizeLock)
        }
        return try body(Transaction(raw: txn, environment: self, isWrite: false))
    }

    /// Begins a write transaction. Only the writer thread of this process calls this.
    func beginWrite() throws -> Transaction {
        if readOnly { throw StoreError(.invalidArgument, "the data directory was opened read-only") }
        let raw = try begin(flags: 0, "mdb_txn_begin(write)")
        let rc = pthread_mutex_lock(openLock)
        guard rc == 0 else {
            mdb_txn_abort(raw)
            pthread_rwlock_unlock(resizeLock)
            throw StoreError(.invalidArgument, "a write transaction began inside another on the writer thread")
        }
        primer?.prepare(used: usedSize, mapSize: mapSize, file: dataFile)
        return Transaction(raw: raw, environment: self, isWrite: true)
    }

    /// Begins a transaction holding `resizeLock` shared; the caller unlocks it when the transaction ends.
    /// Adopts a map grown by another process (`MDB_MAP_RESIZED`) and tries again.
    private func begin(flags: UInt32, _ call: String) throws -> OpaquePointer {
        while true {
            pthread_rwlock_rdlock(resizeLock)
            if closed.load(ordering: .acquiring) {
                pthread_rwlock_unlock(resizeLock)
                throw StoreError(.closed, "the event store was closed")
            }
            var txn: OpaquePointer?
            let rc = mdb_txn_begin(raw, nil, flags, &txn)
            if rc == 0 { return txn! }
            pthread_rwlock_unlock(resizeLock)
            if rc == MDB_PANIC { throw failed() }
            guard rc == MDB_MAP_RESIZED else { throw StoreError.lmdb(rc, call) }
            try adoptMapSizeOfOtherProcess()
        }
    }

    /// Commits a write transaction begun with `beginWrite`. The transaction is over either way.
    func commit(_ transaction: Transaction) throws {
        defer {
            transaction.ended()
            pthread_mutex_unlock(openLock)
            pthread_rwlock_unlock(resizeLock)
        }
        let rc = mdb_txn_commit(transaction.raw)
        if rc != 0 {
            transaction.pendingTables.removeAll()
            throw noticeFailure() ?? commitFailure(rc)
        }
        publish(transaction)
    }

    /// Aborts a write transaction begun with `beginWrite`.
    func abort(_ transaction: Transaction) {
        mdb_txn_abort(transaction.raw)
        transaction.pendingTables.removeAll()
        transaction.ended()
        pthread_mutex_unlock(openLock)
        pthread_rwlock_unlock(resizeLock)
    }

    /// The error of a transaction LMDB refused because the environment failed, which it records (`failure`).
    private func failed() -> StoreError {
        let error = StoreError(
            .io,
            "the data store of \(directory.path) stopped after the disk refused to commit (LMDB marked it failed: "
                + "\(StoreError.errorText(MDB_PANIC))); nothing from the refused commit was stored — check the disk (the "
                + "kernel log names it), then start again: opening the data directory again recovers it",
            returnCode: MDB_PANIC)
        failure.record(error)
        return error
    }

    /// After a failed commit: the environment's failure if LMDB now refuses every transaction (the commit's meta
    /// page could not be written) — known at once, not at the next request; nil when it goes on.
    private func noticeFailure() -> StoreError? {
        var probe: OpaquePointer?
        let rc = mdb_txn_begin(raw, nil, UInt32(MDB_RDONLY), &probe)
        if rc == 0 { mdb_txn_abort(probe) }
        return rc == MDB_PANIC ? failed() : nil
    }

    /// LMDB 0.9 reports a short write as EIO; when the file system is (nearly) out of space, say so, else that the
    /// disk failed.
    private func commitFailure(_ rc: Int32) -> StoreError {
        guard rc == EIO || rc == ENOSPC else { return StoreError.lmdb(rc, "mdb_txn_commit") }
        var fs = statvfs()
        guard statvfs(directory.path, &fs) == 0 else { return StoreError.lmdb(rc, "mdb_txn_commit") }
        let available = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
        if rc == ENOSPC || available < 1 << 20 {
            return StoreError(
                .diskFull,
                "the disk holding \(directory.path) is full (\(available) bytes free); nothing from the failed commit was stored — free space and retry",
                returnCode: ENOSPC)
        }
        // LMDB makes the pages durable before it writes the meta page that would commit them: a failed sync leaves
        // the last commit as it was.
        return StoreError(
            .io,
            "mdb_txn_commit: the disk holding \(directory.path) reported an I/O error while the commit was made "
                + "durable; nothing from the failed commit was stored — check the disk (the kernel log names it) and "
                + "retry",
            returnCode: rc)
    }

    // MARK: Map growth

    /// Doubles the map (by at most 8 GiB at a time) up to the limit. Call with no transaction open
    /// on this thread.
    func growMap() throws {
        let current = mapSize
        guard current < limits.maximumMapSize else {
            throw StoreError(
                .mapLimit,
                "the data directory reached its size limit of \(limits.maximumMapSize) bytes; raise the limit or move older data out"
            )
        }
        let next = min(limits.maximumMapSize, current + min(current, 8 << 30))
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        try check(mdb_env_set_mapsize(raw, next), "mdb_env_set_mapsize(\(next))")
    }

    private func adoptMapSizeOfOtherProcess() throws {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        try check(mdb_env_set_mapsize(raw, 0), "mdb_env_set_mapsize(0)")
    }

    // MARK: Tables

    /// The handle of an existing table, or nil when no table of that name exists yet.
    func existingTable(_ name: String) throws -> Table? {
        if let dbi = tables.withLock({ $0[name] }) { return Table(name: name, dbi: dbi) }
        return try read { try table(name, in: $0, create: false) }
    }

    /// The handle of a table for use in `transaction`; with `create` (write transactions only) makes it when
    /// missing. Nil when no table of that name exists.
    ///
    /// The writer opens handles inside its transaction (it holds `openLock` throughout); they are shared once
    /// it commits. A read transaction that needs a handle not open yet has it opened in a fresh transaction
    /// under `openLock` and throws `TableHandleOpened`: its own snapshot predates the handle, so `read` runs
    /// its body again.
    ///
    /// `valueSets` makes a new table one of value sets: each key holds an ascending set of 8-byte values (LMDB's
    /// `MDB_DUPSORT | MDB_DUPFIXED`); an existing table keeps the kind it was made with.
    func table(_ name: String, in transaction: Transaction, create: Bool, valueSets: Bool = false) throws -> Table? {
        if let dbi = tables.withLock({ $0[name] }) { return Table(name: name, dbi: dbi) }
        if let dbi = transaction.pendingTables[name] { return Table(name: name, dbi: dbi) }
        precondition(!create || transaction.isWrite, "tables are created in write transactions")
        if transaction.isWrite {
            var dbi = MDB_dbi()
            let flags = create ? UInt32(MDB_CREATE) | (valueSets ? UInt32(MDB_DUPSORT | MDB_DUPFIXED) : 0) : 0
            let rc = mdb_dbi_open(transaction.raw, name, flags, &dbi)
            if rc == MDB_NOTFOUND { return nil }
            try check(rc, "mdb_dbi_open(\(name))")
            transaction.pendingTables[name] = dbi
            if create { transaction.noteWrite() }
            return Table(name: name, dbi: dbi)
        }
        guard try openOutsideTransactions(name) else { return nil }
        throw TableHandleOpened()
    }

    /// Opens `name`'s handle in a read transaction of its own, begun while no other transaction of this process
    /// opens one; false when there is no such table. The caller holds `resizeLock` through its own transaction.
    private func openOutsideTransactions(_ name: String) throws -> Bool {
        let locked = pthread_mutex_lock(openLock)
        guard locked == 0 else {
            throw StoreError(
                .invalidArgument,
                "table \(name) was first read in a read transaction of the writer thread during a write; read it in the write transaction"
            )
        }
        defer { pthread_mutex_unlock(openLock) }
        if tables.withLock({ $0[name] }) != nil { return true }
        var txn: OpaquePointer?
        try check(mdb_txn_begin(raw, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin(open \(name))")
        var dbi = MDB_dbi()
        let rc = mdb_dbi_open(txn, name, 0, &dbi)
        guard rc == 0 else {
            mdb_txn_abort(txn)
            if rc == MDB_NOTFOUND { return false }
            throw StoreError.lmdb(rc, "mdb_dbi_open(\(name))")
        }
        // Committing a read transaction keeps the handles opened in it.
        try check(mdb_txn_commit(txn), "mdb_txn_commit(open \(name))")
        tables.withLock { $0[name] = dbi }
        return true
    }

    /// Opens a handle for every table the data directory has, before any other transaction of this process.
    private func openExistingTables() throws {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(raw, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin(open tables)")
        var names: [String] = []
        var cursor: OpaquePointer?
        var rc = mdb_cursor_open(txn, 1, &cursor)
        if rc == 0 {
            var key = MDB_val()
            var value = MDB_val()
            rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
            while rc == 0 {
                names.append(
                    String(decoding: UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size), as: UTF8.self))
                rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
            }
            mdb_cursor_close(cursor)
        }
        var opened: [String: MDB_dbi] = [:]
        for name in names where !name.contains("\0") {
            var dbi = MDB_dbi()
            // A key of the main table that is not a table (MDB_INCOMPATIBLE) is not opened.
            if mdb_dbi_open(txn, name, 0, &dbi) == 0 { opened[name] = dbi }
        }
        try check(mdb_txn_commit(txn), "mdb_txn_commit(open tables)")
        tables.withLock { $0.merge(opened) { current, _ in current } }
    }

    /// Opens or creates a table inside a write transaction.
    func createTable(_ name: String, in transaction: Transaction, valueSets: Bool = false) throws -> Table {
        try table(name, in: transaction, create: true, valueSets: valueSets)!
    }

    /// Deletes a table and its handle inside a write transaction.
    func dropTable(_ table: Table, in transaction: Transaction) throws {
        try check(mdb_drop(transaction.raw, table.dbi, 1), "mdb_drop(\(table.name))")
        transaction.noteWrite()
        transaction.droppedTables.append(table.name)
        transaction.pendingTables[table.name] = nil
    }

    private func publish(_ transaction: Transaction) {
        guard !transaction.pendingTables.isEmpty || !transaction.droppedTables.isEmpty else { return }
        tables.withLock { cache in
            for name in transaction.droppedTables { cache[name] = nil }
            for (name, dbi) in transaction.pendingTables { cache[name] = dbi }
        }
        if !transaction.droppedTables.isEmpty { droppedTablesEpoch.add(1, ordering: .sequentiallyConsistent) }
    }

    /// Names of every table in the environment.
    func tableNames() throws -> [String] {
        try read { txn in try tableNames(startingWith: "", in: txn) }
    }

    /// The names of the tables that start with `prefix`, as `transaction` sees them.
    func tableNames(startingWith prefix: String, in transaction: Transaction) throws -> [String] {
        var names: [String] = []
        var dbi = MDB_dbi()
        try check(mdb_dbi_open(transaction.raw, nil, 0, &dbi), "mdb_dbi_open(main)")
        let main = Table(name: "", dbi: dbi)
        let collect = { (key: UnsafeRawBufferPointer, _: UnsafeRawBufferPointer) in
            names.append(String(decoding: key, as: UTF8.self))
            return true
        }
        // LMDB refuses an empty key to seek to.
        if prefix.isEmpty {
            try transaction.scan(main, collect)
        } else {
            try transaction.scan(main, prefix: Array(prefix.utf8), collect)
        }
        return names
    }

    // MARK: Copy

    /// Writes a compacted, consistent copy of the environment to the new file `file`, hashing it on the way; stops
    /// once `cancelled` holds (Environment+Copy). Returns its size and SHA-256.
    func copyCompacted(into file: URL, cancelled: OperationCancellation) throws -> (size: UInt64, sha256: String) {
        try ensureOpen()
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        return try copyCompactedThroughPipe(into: file, cancelled: cancelled)
    }

    private func ensureOpen() throws {
        if closed.load(ordering: .acquiring) { throw StoreError(.closed, "the event store was closed") }
    }

    private static func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    private static func roundUp(_ size: Int) -> Int {
        let step = 1 << 20
        return (size + step - 1) / step * step
    }
}

/// A read transaction needed a table handle that was opened after it began; `Environment.read` runs it again.
struct TableHandleOpened: Error {}
