import CLMDB

/// A position in a table of an open transaction; closed explicitly by its owner.
final class Cursor {
    private var raw: OpaquePointer?
    private let table: Table

    init(_ transaction: Transaction, _ table: Table) throws {
        self.table = table
        try check(mdb_cursor_open(transaction.raw, table.dbi, &raw), "mdb_cursor_open(\(table.name))")
    }

    func close() {
        mdb_cursor_close(raw)
        raw = nil
    }

    typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    func first() throws -> Entry? { try op(MDB_FIRST) }
    func last() throws -> Entry? { try op(MDB_LAST) }
    func next() throws -> Entry? { try op(MDB_NEXT) }
    func previous() throws -> Entry? { try op(MDB_PREV) }

    /// The first entry whose key is ≥ `key`.
    func seek(_ key: UnsafeRawBufferPointer) throws -> Entry? {
        try get(Self.val(key), MDB_val(), MDB_SET_RANGE, ", set range")
    }

    // MARK: Value sets (tables made with `valueSets`)

    /// The first value ≥ `value` under exactly `key`.
    func seek(_ key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws -> Entry? {
        try get(Self.val(key), Self.val(value), MDB_GET_BOTH_RANGE, ", get both range")
    }

    /// The next value under the current key.
    func nextValue() throws -> Entry? { try op(MDB_NEXT_DUP) }

    /// Adds `value` under `key`, above every value the key holds already (`MDB_APPENDDUP`).
    func appendValue(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        var k = Self.val(key)
        var v = Self.val(value)
        try check(mdb_cursor_put(raw, &k, &v, UInt32(MDB_APPENDDUP)), "mdb_cursor_put(\(table.name), append value)")
    }

    private func op(_ operation: MDB_cursor_op) throws -> Entry? { try get(MDB_val(), MDB_val(), operation, "") }

    /// `mdb_cursor_get` with `operation`; nil when there is no such entry.
    private func get(_ key: MDB_val, _ value: MDB_val, _ operation: MDB_cursor_op, _ what: String) throws -> Entry? {
        var k = key
        var v = value
        let rc = mdb_cursor_get(raw, &k, &v, operation)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "mdb_cursor_get(\(table.name)\(what))")
        return (
            UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
            UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
        )
    }

    /// Borrowed bytes as LMDB's value struct (LMDB reads them, never writes).
    private static func val(_ bytes: UnsafeRawBufferPointer) -> MDB_val {
        MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
    }
}
