/// A projection's tables inside one transaction.
public struct ProjectionState {
    let txn: Transaction
    /// A projection has a handful of tables: a linear search beats hashing the name on every write.
    private let named: [(name: String, table: Table)]
    /// True while the projection is being rebuilt from the log: skip side effects (pushes, webhooks).
    public let isReplaying: Bool
    /// The projection's name, for error messages.
    public let projection: String

    init(txn: Transaction, tables: [String: Table], isReplaying: Bool, projection: String) {
        self.txn = txn
        self.named = tables.map { ($0.key, $0.value) }
        self.isReplaying = isReplaying
        self.projection = projection
    }

    /// The tables by name (for verification and backup).
    var tables: [String: Table] { Dictionary(uniqueKeysWithValues: named.map { ($0.name, $0.table) }) }

    private func table(_ name: String) throws -> Table {
        guard let table = named.first(where: { $0.name == name })?.table else {
            throw StoreError(
                .invalidArgument,
                "projection \(projection) has no table \(String(reflecting: name)); declare it in `tables`")
        }
        return table
    }

    /// The value under `key`, copied out.
    public func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? {
        try txn.get(self.table(table), key)
    }

    /// Borrows the value under `key` for the duration of `body`.
    public func withValue<T>(_ table: String, _ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> T) throws -> T
    {
        try key.withUnsafeBytes { try withValue(table, $0, body) }
    }

    /// Borrows the value under a borrowed `key` for the duration of `body`.
    public func withValue<T>(
        _ table: String, _ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) throws -> T
    ) throws -> T {
        try body(try txn.get(self.table(table), key))
    }

    public func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws {
        try txn.put(self.table(table), key, value)
    }

    /// Stores `value` under `key` from borrowed bytes (no copies on hot paths).
    public func put(_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        try txn.put(self.table(table), key, value)
    }

    @discardableResult
    public func delete(_ table: String, _ key: [UInt8]) throws -> Bool {
        try txn.delete(self.table(table), key)
    }

    /// Visits entries whose key starts with `prefix` until `body` returns false.
    public func scan(
        _ table: String, prefix: [UInt8] = [],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let t = try self.table(table)
        if prefix.isEmpty { try txn.scan(t, from: nil, body) } else { try txn.scan(t, prefix: prefix, body) }
    }

    /// Visits entries from the first key ≥ `start` until `body` returns false.
    public func scan(
        _ table: String, from start: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let t = try self.table(table)
        try start.withUnsafeBytes { try txn.scan(t, from: $0, body) }
    }

    /// Adds `values`, ascending and each above every value `key` holds already, to the set under `key` of a table
    /// the projection declares in `valueSetTables`.
    public func appendValues(_ table: String, key: UnsafeRawBufferPointer, ascending values: some Sequence<UInt64>)
        throws
    {
        try txn.appendValues(self.table(table), key: key, ascending: values)
    }

    /// Visits the values under `key` of a value-set table from the first ≥ `start` on, ascending, until `body`
    /// returns false.
    public func scanValues(_ table: String, key: [UInt8], from start: UInt64, _ body: (UInt64) throws -> Bool) throws {
        let t = try self.table(table)
        try key.withUnsafeBytes { try txn.scanValues(t, key: $0, from: start, body) }
    }

    /// Removes `value` from the set under `key` of a value-set table; returns whether it was there.
    @discardableResult
    public func deleteValue(_ table: String, key: [UInt8], _ value: UInt64) throws -> Bool {
        let t = try self.table(table)
        return try key.withUnsafeBytes { try txn.deleteValue(t, key: $0, value) }
    }

    /// Number of entries in a table.
    public func count(_ table: String) throws -> Int { try txn.count(self.table(table)) }

    /// The first and the last entry of a table (the oldest and newest of one keyed by position); nil when empty.
    public func ends(_ table: String) throws -> (first: Transaction.Entry, last: Transaction.Entry)? {
        try txn.ends(self.table(table))
    }
}
