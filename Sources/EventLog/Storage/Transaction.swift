import CLMDB

/// An LMDB transaction: a read snapshot, or the single write transaction of the writer thread.
///
/// Bytes returned by `get` and `scan` point into the memory map and are valid only until the
/// transaction ends or, in a write transaction, until the next write. Not `Sendable`: a transaction
/// belongs to the thread that runs the closure it was handed to.
public final class Transaction {
    let raw: OpaquePointer
    unowned let environment: Environment
    /// True for the writer's transaction.
    public let isWrite: Bool
    var pendingTables: [String: MDB_dbi] = [:]
    var droppedTables: [String] = []
    /// The inline projections' active tables, resolved once per write transaction; cleared whenever a
    /// generation changes (rebuild swap, cancel, first build).
    var inlineProjectionStates: InlineProjectionStates?
    /// Every projection's active tables asked for in this write transaction (`WriteScope.projection`), resolved
    /// once: a rules job asks for two or three per report. Cleared with `inlineProjectionStates`.
    var activeProjectionStates: [String: ProjectionState] = [:]
    /// Counts writes, so the writer can tell whether a job that failed left anything behind.
    private(set) var writeCount = 0

    init(raw: OpaquePointer, environment: Environment, isWrite: Bool) {
        self.raw = raw
        self.environment = environment
        self.isWrite = isWrite
    }

    /// Drops what the transaction kept for its own use once it is over: the cached projection states hold the
    /// transaction itself, so keeping them would keep every write transaction (and its states) alive for good.
    func ended() {
        forgetProjectionStates()
    }

    /// Forgets the resolved projection tables: the transaction ended, or a projection's active generation changed.
    func forgetProjectionStates() {
        inlineProjectionStates = nil
        activeProjectionStates = [:]
    }

    // MARK: Reading

    /// The value stored under `key`, or nil.
    public func get(_ table: Table, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = mdb_get(raw, table.dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "mdb_get(\(table.name))")
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    /// The value stored under `key`, copied out.
    public func get(_ table: Table, _ key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { try get(table, $0).map { Array($0) } }
    }

    /// Visits entries in key order from the first key ≥ `start` (or the first key) until `body` returns false.
    public func scan(
        _ table: Table, from start: UnsafeRawBufferPointer? = nil,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let cursor = try Cursor(self, table)
        defer { cursor.close() }
        var entry = try start.map { try cursor.seek($0) } ?? cursor.first()
        while let (key, value) = entry {
            guard try body(key, value) else { return }
            entry = try cursor.next()
        }
    }

    /// Visits entries whose key starts with `prefix`, in key order, until `body` returns false.
    public func scan(
        _ table: Table, prefix: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try prefix.withUnsafeBytes { start in
            try scan(table, from: start) { key, value in
                guard key.starts(with: start) else { return false }
                return try body(key, value)
            }
        }
    }

    /// The first and the last entry of the table, copied out; nil when it is empty.
    public func ends(_ table: Table) throws -> (first: Entry, last: Entry)? {
        let cursor = try Cursor(self, table)
        defer { cursor.close() }
        guard let first = try cursor.first().map(Entry.init) else { return nil }
        guard let last = try cursor.last().map(Entry.init) else { return nil }
        return (first, last)
    }

    /// An entry copied out of the table.
    public struct Entry: Sendable, Hashable {
        public var key: [UInt8]
        public var value: [UInt8]

        init(_ borrowed: (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)) {
            key = Array(borrowed.key)
            value = Array(borrowed.value)
        }
    }

    /// Number of entries in the table.
    public func count(_ table: Table) throws -> Int {
        var stat = MDB_stat()
        try check(mdb_stat(raw, table.dbi, &stat), "mdb_stat(\(table.name))")
        return stat.ms_entries
    }

    // MARK: Writing

    /// Stores `value` under `key`. `append` promises the key sorts after every existing key (faster).
    public func put(
        _ table: Table, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, append: Bool = false
    ) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        writeCount += 1
        try check(mdb_put(raw, table.dbi, &k, &v, append ? UInt32(MDB_APPEND) : 0), "mdb_put(\(table.name))")
    }

    /// Stores `value` under `key`.
    public func put(_ table: Table, _ key: [UInt8], _ value: [UInt8], append: Bool = false) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(table, k, v, append: append) } }
    }

    /// Reserves `size` bytes under `key` and lets `fill` write the value in place.
    public func put(
        _ table: Table, _ key: UnsafeRawBufferPointer, reserving size: Int, append: Bool = false,
        _ fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: size, mv_data: nil)
        let flags = UInt32(MDB_RESERVE) | (append ? UInt32(MDB_APPEND) : 0)
        writeCount += 1
        try check(mdb_put(raw, table.dbi, &k, &v, flags), "mdb_put(\(table.name), reserve)")
        try fill(UnsafeMutableRawBufferPointer(start: v.mv_data, count: size))
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func delete(_ table: Table, _ key: UnsafeRawBufferPointer) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        writeCount += 1
        let rc = mdb_del(raw, table.dbi, &k, nil)
        if rc == MDB_NOTFOUND { return false }
        try check(rc, "mdb_del(\(table.name))")
        return true
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func delete(_ table: Table, _ key: [UInt8]) throws -> Bool {
        try key.withUnsafeBytes { try delete(table, $0) }
    }

    // MARK: Value sets (tables made with `valueSets`)

    /// Adds `values`, ascending and each above every value `key` holds already, to the set under `key`; stored
    /// big-endian, so the set's order is the numbers' order.
    public func appendValues(_ table: Table, key: UnsafeRawBufferPointer, ascending values: some Sequence<UInt64>)
        throws
    {
        let cursor = try Cursor(self, table)
        defer { cursor.close() }
        for value in values {
            writeCount += 1
            try withUnsafeBytes(of: value.bigEndian) { try cursor.appendValue(key, $0) }
        }
    }

    /// Visits the values under `key` from the first ≥ `start` on, ascending, until `body` returns false. A key no
    /// table can hold (empty, or longer than LMDB's limit) holds nothing: asking for it is no error.
    public func scanValues(
        _ table: Table, key: UnsafeRawBufferPointer, from start: UInt64, _ body: (UInt64) throws -> Bool
    ) throws {
        guard !key.isEmpty, key.count <= Int(mdb_env_get_maxkeysize(environment.raw)) else { return }
        let cursor = try Cursor(self, table)
        defer { cursor.close() }
        var entry = try withUnsafeBytes(of: start.bigEndian) { try cursor.seek(key, value: $0) }
        while let (_, value) = entry, value.count == 8 {
            guard try body(UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))) else { return }
            entry = try cursor.nextValue()
        }
    }

    /// Removes `value` from the set under `key`; returns whether it was there.
    @discardableResult
    public func deleteValue(_ table: Table, key: UnsafeRawBufferPointer, _ value: UInt64) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        writeCount += 1
        let rc = withUnsafeBytes(of: value.bigEndian) { bytes in
            var v = MDB_val(mv_size: 8, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            return mdb_del(raw, table.dbi, &k, &v)
        }
        if rc == MDB_NOTFOUND { return false }
        try check(rc, "mdb_del(\(table.name), value)")
        return true
    }

    /// Removes every entry of the table, keeping the table.
    public func clear(_ table: Table) throws {
        writeCount += 1
        try check(mdb_drop(raw, table.dbi, 0), "mdb_drop(\(table.name), empty)")
    }

    /// Notes a write made outside these methods (table creation or removal).
    func noteWrite() { writeCount += 1 }
}
