/// Typed access to the `meta` table.
struct Meta {
    let table: Table

    func integer(_ key: String, in txn: Transaction) throws -> UInt64? {
        try Array(key.utf8).withUnsafeBytes { k in
            try txn.get(table, k).map { v -> UInt64 in
                guard v.count == 8 else { return 0 }
                return UInt64(littleEndian: v.loadUnaligned(as: UInt64.self))
            }
        }
    }

    /// The stored format version; 0 when the stored value is not 8 bytes (a damaged `meta` table).
    func formatVersion(in txn: Transaction) throws -> UInt64? {
        try txn.get(table, Array(Self.formatVersion.utf8)).map { v -> UInt64 in
            v.count == 8 ? v.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) } : 0
        }
    }

    func setInteger(_ key: String, _ value: UInt64, in txn: Transaction) throws {
        try txn.put(table, Array(key.utf8), withUnsafeBytes(of: value.littleEndian) { Array($0) })
    }

    func string(_ key: String, in txn: Transaction) throws -> String? {
        try txn.get(table, Array(key.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    func setString(_ key: String, _ value: String, in txn: Transaction) throws {
        try txn.put(table, Array(key.utf8), Array(value.utf8))
    }

    func remove(_ key: String, in txn: Transaction) throws {
        try txn.delete(table, Array(key.utf8))
    }

    /// Every key starting with `prefix`, with its raw value.
    func entries(prefix: String, in txn: Transaction) throws -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        try txn.scan(table, prefix: Array(prefix.utf8)) { k, v in
            result.append((String(decoding: k, as: UTF8.self), Array(v)))
            return true
        }
        return result
    }

    static let formatVersion = "format.version"
}
